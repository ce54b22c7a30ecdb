#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The proxy schemes libcurl takes in CURLOPT_PROXY. Anything else would make
/// libcurl fail every transfer with "Unsupported proxy scheme": refuse it up front.
public enum ProxyScheme: String, Sendable, CaseIterable {
    case http, https, socks4, socks4a, socks5, socks5h
}

/// A validated proxy URL: `scheme://[user[:password]@]host[:port][/]`.
///
/// `url` (with credentials) is only for libcurl; everything a person or a
/// program sees uses `redacted`. A scheme-less `host:port` means http, as curl
/// reads it (and as `http_proxy=proxy:3128` is commonly written).
public struct ProxyURL: Sendable, Equatable, CustomStringConvertible {
    public let scheme: ProxyScheme
    /// Host as written, IPv6 in brackets, lower-cased.
    public let host: String
    /// The port as written; nil leaves libcurl's default (1080, 443 for https).
    public let port: Int?
    /// The URL for CURLOPT_PROXY, credentials included (libcurl percent-decodes them).
    public let url: String
    /// The same URL without credentials: `http://user:secret@host:3128` gives `http://host:3128`.
    public let redacted: String
    public let hasCredentials: Bool
    /// `user:password` as written, for `scrub`; never rendered.
    private let userinfo: String?

    /// - Parameter source: where the text came from (`--proxy`, `https_proxy`, ...), for the error message.
    public init(parsing text: String, source: String = "proxy") throws(ProxyURLError) {
        func fail(_ problem: String) -> ProxyURLError {
            ProxyURLError(source: source, value: ProxyURL.redact(text), problem: problem)
        }
        guard !text.isEmpty else { throw fail("it is empty") }
        guard text.utf8.count <= 2048 else { throw fail("it is longer than 2048 bytes") }
        guard !URLRules.hasSpaceOrInvisible(text) else {
            throw fail("it contains white space or control characters")
        }
        var rest = Substring(text)
        var scheme = ProxyScheme.http
        if let separator = Self.schemeSeparator(in: text[...]) {
            let name = text[..<separator.lowerBound].lowercased()
            guard let known = ProxyScheme(rawValue: name) else {
                // Echo the scheme only when it looks like one: "user:secret@x://" must not be repeated.
                let shown = name.count <= 16 && name.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || "+-.".contains($0)) }
                throw fail("unsupported scheme\(shown ? " '\(name)'" : "") (use \(ProxyScheme.allCases.map(\.rawValue).joined(separator: ", ")))")
            }
            scheme = known
            rest = text[separator.upperBound...]
        }
        // Credentials end at the last "@": a password may contain "@" but, unencoded, nothing
        // that would end the authority (libcurl would cut the URL there and use another host).
        var userinfo: Substring?
        if let at = rest.lastIndex(of: "@") {
            let info = rest[..<at]
            guard !info.contains(where: { $0 == "/" || $0 == "?" || $0 == "#" }) else {
                throw fail("'/', '?' and '#' in credentials must be percent-encoded")
            }
            userinfo = info
            rest = rest[rest.index(after: at)...]
        }
        // The authority ends at the path; a proxy URL has none beyond "/" (curl would ignore it: say so instead).
        let authorityEnd = rest.firstIndex { $0 == "/" || $0 == "?" || $0 == "#" } ?? rest.endIndex
        guard rest[authorityEnd...].isEmpty || rest[authorityEnd...] == "/" else {
            throw fail("a proxy URL has no path, query or fragment")
        }
        let authority = rest[..<authorityEnd]
        let (host, port) = try Self.hostAndPort(authority, fail)
        self.scheme = scheme
        self.host = host
        self.port = port
        self.hasCredentials = userinfo != nil
        self.userinfo = userinfo.map(String.init)
        let credentials = userinfo.map { $0 + "@" } ?? ""
        let hostPort = host + (port.map { ":\($0)" } ?? "")
        self.url = "\(scheme.rawValue)://\(credentials)\(hostPort)"
        self.redacted = "\(scheme.rawValue)://\(hostPort)"
    }

    public var description: String { redacted }

    /// `text` with these credentials removed wherever they appear (the whole `user:password`,
    /// and the password alone when it is long enough not to be an ordinary word fragment).
    /// Defence in depth for text that passed near libcurl, such as its error messages.
    public func scrub(_ text: String) -> String {
        guard let userinfo else { return text }
        var result = text.replacing(userinfo, with: "***")
        if let colon = userinfo.firstIndex(of: ":") {
            let password = userinfo[userinfo.index(after: colon)...]
            if password.count >= 4 { result = result.replacing(password, with: "***") }
        }
        return result
    }

    private static func hostAndPort(
        _ authority: Substring, _ fail: (String) -> ProxyURLError
    ) throws(ProxyURLError) -> (String, Int?) {
        var hostPart = authority
        var portPart: Substring?
        if authority.hasPrefix("[") {
            guard let close = authority.firstIndex(of: "]") else { throw fail("unterminated IPv6 address") }
            hostPart = authority[...close]
            let after = authority[authority.index(after: close)...]
            if !after.isEmpty {
                guard after.hasPrefix(":") else { throw fail("unexpected text after the IPv6 address") }
                portPart = after.dropFirst()
            }
            guard IPAddressText.ipv6(hostPart.dropFirst().dropLast()) != nil else { throw fail("invalid IPv6 address") }
        } else if let colon = authority.lastIndex(of: ":") {
            hostPart = authority[..<colon]
            portPart = authority[authority.index(after: colon)...]
        }
        guard !hostPart.isEmpty else { throw fail("no host") }
        if !hostPart.hasPrefix("[") {
            let allowed = { (c: Character) in c.isASCII && (c.isLetter || c.isNumber || c == "-" || c == "." || c == "_") }
            guard hostPart.allSatisfy(allowed) else { throw fail("invalid host name") }
        }
        guard let portPart else { return (hostPart.lowercased(), nil) }
        guard (1...5).contains(portPart.count), portPart.allSatisfy({ $0.isASCII && $0.isNumber }),
              let port = Int(portPart), (1...65_535).contains(port) else {
            throw fail("invalid port '\(portPart)'")
        }
        return (hostPart.lowercased(), port)
    }

    /// The first "://" in `text`.
    private static func schemeSeparator(in text: Substring) -> Range<String.Index>? {
        var index = text.startIndex
        while index < text.endIndex {
            if text[index...].hasPrefix("://") { return index..<text.index(index, offsetBy: 3) }
            index = text.index(after: index)
        }
        return nil
    }

    /// Best-effort credential removal for text that may not even parse (error messages):
    /// whatever sits between "://" (or the start) and the last "@" goes (a proxy URL has
    /// no path, so any "@" ends credentials), and control characters become "?".
    /// Longer than 512 characters is cut: it is for messages, not for use.
    public static func redact(_ text: String) -> String {
        var result = text
        if let at = text.lastIndex(of: "@") {
            // Keep the scheme only when it comes before the credentials ("user:pw@x://h" keeps nothing of them).
            let schemeEnd = schemeSeparator(in: text[..<at])?.upperBound ?? text.startIndex
            result = String(text[..<schemeEnd]) + String(text[text.index(after: at)...])
        }
        return String(String.UnicodeScalarView(result.unicodeScalars.prefix(512).map {
            URLRules.isControlOrFormat($0) ? "?" : $0
        }))
    }
}

/// A proxy URL that cannot be used, naming where it came from and what is wrong
/// (never its credentials).
public struct ProxyURLError: Error, Sendable, Equatable, CustomStringConvertible {
    /// `--proxy`, or the environment variable's name.
    public var source: String
    /// The URL as given, credentials removed.
    public var value: String
    public var problem: String

    public var description: String { "\(source): invalid proxy URL '\(value)': \(problem)" }
}
