import Glibc
import NetprobeCore

/// Reads the resolver configuration the C library would use. Netlink knows
/// nothing about DNS, so this is the one place we parse text.
enum ResolvConf {
    /// Larger files are truncated: real resolv.conf files are a few hundred bytes.
    static let readLimit = 64 * 1024

    static func load(path: String) -> DNSConfiguration {
        parse(BoundedFile.read(path, limit: readLimit) ?? "", source: path)
    }

    /// Follows glibc's rules where they matter: `nameserver` lines accumulate,
    /// the last `search` or `domain` line wins, `#` and `;` start comments.
    /// Anything unparseable (bad addresses, unknown keywords, binary junk) is ignored.
    static func parse(_ text: String, source: String) -> DNSConfiguration {
        var servers: [String] = []
        var searchDomains: [String] = []
        for rawLine in text.split(whereSeparator: \.isNewline) {
            let line = rawLine.prefix { $0 != "#" && $0 != ";" }
            let words = line.split(whereSeparator: { $0 == " " || $0 == "\t" }).map(String.init)
            guard let keyword = words.first else { continue }
            switch keyword {
            case "nameserver":
                if words.count >= 2, isIPAddress(words[1]), !servers.contains(words[1]) {
                    servers.append(words[1])
                }
            case "search":
                searchDomains = Array(words.dropFirst())
            case "domain":
                searchDomains = words.count >= 2 ? [words[1]] : []
            default:
                continue
            }
        }
        return DNSConfiguration(
            servers: servers, searchDomains: searchDomains,
            localStub: servers.contains(where: isLoopback), source: source)
    }

    /// IPv4 dotted quad or IPv6, optionally with a "%zone" suffix (fe80::1%eth0).
    static func isIPAddress(_ text: String) -> Bool {
        ipv4Bytes(text) != nil || ipv6Bytes(text) != nil
    }

    /// 127.0.0.0/8, ::1, or an IPv4-mapped loopback (::ffff:127.0.0.53).
    static func isLoopback(_ text: String) -> Bool {
        if let v4 = ipv4Bytes(text) { return v4[0] == 127 }
        guard let v6 = ipv6Bytes(text) else { return false }
        if v6[0..<15].allSatisfy({ $0 == 0 }) && v6[15] == 1 { return true }
        let mappedPrefix: [UInt8] = Array(repeating: 0, count: 10) + [0xff, 0xff]
        return Array(v6[0..<12]) == mappedPrefix && v6[12] == 127
    }

    private static func ipv4Bytes(_ text: String) -> [UInt8]? {
        var address = in_addr()
        guard inet_pton(AF_INET, text, &address) == 1 else { return nil }
        return withUnsafeBytes(of: address) { Array($0) }
    }

    private static func ipv6Bytes(_ text: String) -> [UInt8]? {
        let parts = text.split(separator: "%", maxSplits: 1, omittingEmptySubsequences: false)
        if parts.count == 2 && parts[1].isEmpty { return nil }  // "fe80::1%" names no zone
        var address = in6_addr()
        guard inet_pton(AF_INET6, String(parts[0]), &address) == 1 else { return nil }
        return withUnsafeBytes(of: address) { Array($0) }
    }
}
