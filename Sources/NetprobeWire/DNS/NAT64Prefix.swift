/// A NAT64 prefix discovered as RFC 7050 describes: the AAAA records a DNS64 resolver
/// synthesizes for `ipv4only.arpa` (whose only real records are the A records 192.0.0.170 and
/// 192.0.0.171) carry the well-known IPv4 address at one of RFC 6052's positions, which gives
/// the prefix and its length. No NAT64 (or no DNS64): no AAAA, or none that embeds them.
public struct NAT64Prefix: Sendable, Equatable {
    /// "64:ff9b::/96"
    public var prefix: String
    /// Where it was learned: the resolver asked.
    public var resolver: String

    public init(prefix: String, resolver: String) {
        self.prefix = prefix
        self.resolver = resolver
    }

    public static let wellKnownName = "ipv4only.arpa"

    /// The prefix one synthesized AAAA answer shows, if it embeds 192.0.0.170 or .171 as
    /// RFC 6052 allows: a length of 32, 40, 48, 56, 64 or 96 bits, the "u" octet (bits 64-71)
    /// zero, whatever the length (section 2.2: it MUST be, a /96 included). A prefix no NAT64
    /// can have is never reported: the IPv4-mapped `::ffff:0:0/96` (and the all-zero `::/96`
    /// of IPv4-compatible addresses), which name IPv4 itself, multicast `ff00::/8` and
    /// link-local `fe80::/10`.
    public static func prefix(of address: [UInt8]) -> String? {
        guard address.count == 16 else { return nil }
        // RFC 6052 section 2.2: the IPv4 bytes' positions per prefix length; byte 8 (bits
        // 64-71) is always zero and skipped.
        let layouts: [(length: Int, positions: [Int])] = [
            (96, [12, 13, 14, 15]), (64, [9, 10, 11, 12]), (56, [7, 9, 10, 11]),
            (48, [6, 7, 9, 10]), (40, [5, 6, 7, 9]), (32, [4, 5, 6, 7]),
        ]
        for layout in layouts {
            let embedded = layout.positions.map { address[$0] }
            guard embedded[0] == 192, embedded[1] == 0, embedded[2] == 0, embedded[3] == 170 || embedded[3] == 171,
                  address[8] == 0 else { continue }
            var prefix = address
            for index in (layout.length / 8)..<16 { prefix[index] = 0 }
            guard allowed(prefix) else { continue }
            return IPAddressFormat.text(prefix[...]) + "/\(layout.length)"
        }
        return nil
    }

    /// Not multicast, not link-local (`fe80::/10` names no route beyond the link, so no
    /// translator's prefix), not IPv4-mapped, not all zero.
    static func allowed(_ prefix: [UInt8]) -> Bool {
        if prefix[0] == 0xFF { return false }
        if prefix[0] == 0xFE && prefix[1] & 0xC0 == 0x80 { return false }
        if prefix[0..<10].allSatisfy({ $0 == 0 }) && prefix[10] == 0xFF && prefix[11] == 0xFF { return false }
        return !prefix[0..<12].allSatisfy { $0 == 0 }
    }
}
