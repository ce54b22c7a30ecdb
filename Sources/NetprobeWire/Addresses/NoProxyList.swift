/// A `NO_PROXY` value, matched as libcurl does (lib/noproxy.c, 7.86 and later):
///
/// - exactly `*` bypasses the proxy for every host (`*` inside a list is an ordinary entry);
/// - entries are separated by commas or blanks;
/// - a host name matches an entry equal to it or ending in "." + entry, case-insensitively;
///   a leading dot and a trailing dot of the entry are ignored (`.example.com` = `example.com`);
/// - an IP address matches an entry that is the same address, or a CIDR range containing it
///   (`10.0.0.0/8`, `2001:db8::/32`); names are never resolved to compare with addresses;
/// - entries carry no port: `host:8080` matches nothing.
public struct NoProxyList: Sendable, Equatable {
    public let entries: [String]
    public let matchesEverything: Bool

    public init(_ value: String) {
        matchesEverything = value == "*"
        entries = value.split { $0 == "," || $0 == " " || $0 == "\t" }.map(String.init)
    }

    /// `host` without brackets for IPv6.
    public func matches(host: String) -> Bool {
        if matchesEverything { return true }
        guard !host.isEmpty else { return false }
        if let address = IPAddressText.address(host) {
            return entries.contains { Self.entry($0, containsAddress: address) }
        }
        let name = Self.withoutTrailingDot(host.lowercased())
        return entries.contains { raw in
            var entry = Self.withoutTrailingDot(raw.lowercased())
            if entry.hasPrefix(".") { entry.removeFirst() }
            guard !entry.isEmpty else { return false }
            return name == entry || name.hasSuffix("." + entry)
        }
    }

    private static func withoutTrailingDot(_ text: String) -> String {
        text.hasSuffix(".") ? String(text.dropLast()) : text
    }

    /// Same address, or inside the entry's prefix. A prefix length of 0 or none means the
    /// whole address, as in libcurl; an out-of-range length matches nothing.
    private static func entry(_ entry: String, containsAddress address: [UInt8]) -> Bool {
        let parts = entry.split(separator: "/", maxSplits: 1, omittingEmptySubsequences: false)
        let text = parts[0].hasPrefix("[") && parts[0].hasSuffix("]") ? parts[0].dropFirst().dropLast() : parts[0]
        guard let network = address.count == 4 ? IPAddressText.ipv4(text) : IPAddressText.ipv6(text) else { return false }
        var bits = address.count * 8
        if parts.count == 2 {
            guard let given = Int(parts[1]), (0...bits).contains(given) else { return false }
            if given > 0 { bits = given }
        }
        for index in 0..<address.count {
            let used = min(8, max(0, bits - index * 8))
            if used == 0 { break }
            let mask = UInt8(truncatingIfNeeded: 0xFF << (8 - used))
            if address[index] & mask != network[index] & mask { return false }
        }
        return true
    }
}
