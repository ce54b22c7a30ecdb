/// Which recorded resolver addresses netprobe may send a question to. A lease or state file is
/// written by another program (or by whoever can write its directory) and its resolvers are
/// asked directly, bound to the link; so only a unicast address of another host counts:
///
/// - not unspecified (`0.0.0.0`, `::`): a datagram to it reaches the machine itself;
/// - not loopback (`127/8`, `::1`): the machine's own services, never the network's resolver;
/// - not multicast or broadcast (`224/4`, `240/4`, `ff00::/8`): the probe names would be sent to
///   every host on the link;
/// - not IPv4-mapped (`::ffff:a.b.c.d`): no resolver is announced so, and each of the above
///   hides behind it;
/// - a zone (`fe80::53%eth0`) only on a link-local address, and only an interface name (at most
///   15 bytes of letters, digits, `-`, `_`, `.`): a zone is written into reports and handed to
///   the kernel, so control bytes or a path never pass.
public enum ResolverAddress {
    /// The address bytes (4 or 16) and the zone, when `text` is a usable resolver address.
    public static func parse(_ text: String) -> (bytes: [UInt8], zone: String?)? {
        var address = Substring(text), zone: Substring?
        if let percent = text.firstIndex(of: "%") {
            address = text[..<percent]
            zone = text[text.index(after: percent)...]
        }
        guard let bytes = IPAddressText.address(String(address), octets: .strict), isUnicast(bytes) else { return nil }
        guard let zone else { return (bytes, nil) }
        guard bytes.count == 16, bytes[0] == 0xFE, bytes[1] & 0xC0 == 0x80, isInterfaceName(zone) else { return nil }
        return (bytes, String(zone))
    }

    public static func isUsable(_ text: String) -> Bool {
        parse(text) != nil
    }

    /// The usable ones of `servers`, in order, each once.
    public static func filter(_ servers: [String]) -> [String] {
        var kept: [String] = []
        for server in servers where isUsable(server) && !kept.contains(server) { kept.append(server) }
        return kept
    }

    /// A unicast address of another host.
    public static func isUnicast(_ b: [UInt8]) -> Bool {
        // IPv4-mapped: no resolver is announced so, and each class below could hide behind it.
        if b.count == 16 && b[0..<10].allSatisfy({ $0 == 0 }) && b[10] == 0xFF && b[11] == 0xFF { return false }
        let kind: AddressClass
        switch b.count {
        case 4: kind = AddressClass.ipv4(b)
        case 16: kind = AddressClass.ipv6(b)
        default: return false
        }
        return kind != .unspecified && kind != .loopback && kind != .multicast && kind != .reserved
    }

    /// Linux interface names: 1 to 15 bytes (IFNAMSIZ less the NUL), no `/`, no space or
    /// control; netprobe takes the portable subset.
    public static func isInterfaceName(_ name: Substring) -> Bool {
        (1...15).contains(name.utf8.count) && name != "." && name != ".."
            && name.utf8.allSatisfy { byte in
                (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z")) || (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z"))
                    || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9"))
                    || byte == UInt8(ascii: "-") || byte == UInt8(ascii: "_") || byte == UInt8(ascii: ".")
            }
    }
}
