import Foundation

enum URLRules {
    /// The host of an absolute http(s) URL, or nil when the URL is anything else.
    static func httpHost(_ text: String) -> String? {
        guard text.count <= 2048, !text.contains(where: { $0.isWhitespace || $0.asciiValue.map { $0 < 0x20 || $0 == 0x7f } ?? false }),
              let components = URLComponents(string: text),
              let scheme = components.scheme?.lowercased(), scheme == "http" || scheme == "https",
              let host = components.host, !host.isEmpty
        else { return nil }
        return host.lowercased()
    }
}
