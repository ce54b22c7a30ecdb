import NetprobeWire
import NetprobeVerdict

/// Reads the resolver configuration the C library would use. Netlink knows
/// nothing about DNS, so this is the one place we parse text.
enum ResolvConf {
    /// Larger files are truncated: real resolv.conf files are a few hundred bytes.
    static let readLimit = 64 * 1024

    static func load(path: String) -> DNSConfiguration {
        parse(CheckedFile.text(path, limit: readLimit) ?? "", source: path)
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

    /// IPv4 dotted quad or IPv6, optionally with a "%zone" suffix naming an interface
    /// (fe80::1%eth0), as inet_pton(3) reads them (no leading zeros in an IPv4 octet).
    static func isIPAddress(_ text: String) -> Bool {
        address(text) != nil
    }

    /// 127.0.0.0/8, ::1, or an IPv4-mapped loopback (::ffff:127.0.0.53).
    static func isLoopback(_ text: String) -> Bool {
        guard let bytes = address(text) else { return false }
        if bytes.count == 4 { return bytes[0] == 127 }
        if bytes[0..<15].allSatisfy({ $0 == 0 }) && bytes[15] == 1 { return true }
        let mappedPrefix: [UInt8] = Array(repeating: 0, count: 10) + [0xff, 0xff]
        return Array(bytes[0..<12]) == mappedPrefix && bytes[12] == 127
    }

    /// The address's bytes; a zone only as an interface name (it is written into reports).
    private static func address(_ text: String) -> [UInt8]? {
        if let percent = text.firstIndex(of: "%"),
           !ResolverAddress.isInterfaceName(text[text.index(after: percent)...]) { return nil }
        return IPAddressText.address(text, zone: .plain, octets: .strict)
    }
}
