#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

package enum URLRules {
    /// The host of an absolute http(s) URL, or nil when the URL is anything else. `strict`
    /// (the default, for URLs netprobe is given) also requires RFC 3986 syntax (`URLSyntax`);
    /// URLs a portal sends (Location, meta refresh) are read as browsers read them.
    package static func httpHost(_ text: String, strict: Bool = true) -> String? {
        if strict {
            guard let parts = URLSyntax.parse(text), parts.scheme == "http" || parts.scheme == "https" else { return nil }
        }
        guard text.count <= 2048, !hasSpaceOrInvisible(text),
              let components = URLComponents(string: text),
              let scheme = components.scheme?.lowercased(), scheme == "http" || scheme == "https",
              let host = components.host, !host.isEmpty,
              (components.port.map { (1...65_535).contains($0) } ?? true)
        else { return nil }
        return host.lowercased()
    }

    /// White space, controls or invisible format characters anywhere in `text`. Printable
    /// ASCII, what almost every URL is, is answered from its bytes: looking up Unicode
    /// properties scalar by scalar is slow.
    static func hasSpaceOrInvisible(_ text: String) -> Bool {
        if text.utf8.allSatisfy({ (0x21...0x7E).contains($0) }) { return false }
        return text.unicodeScalars.contains { $0.properties.isWhitespace || isControlOrFormat($0) }
    }

    /// C0/C1 controls, DEL, and invisible format characters such as bidi overrides.
    static func isControlOrFormat(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.properties.generalCategory {
        case .control, .format: return true
        default: return false
        }
    }
}

/// What the kernel accepts as an interface name (dev_valid_name): 1-15 bytes,
/// no '/', no white space, not "." or "..".
public enum InterfaceName {
    public static func isValid(_ name: String) -> Bool {
        !name.isEmpty && name.utf8.count <= 15 && name != "." && name != ".."
            && !name.unicodeScalars.contains { $0 == "/" || $0.properties.isWhitespace || URLRules.isControlOrFormat($0) }
    }
}
