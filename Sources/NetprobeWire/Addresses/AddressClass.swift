/// What kind of address a probe's host name led to. A public probe host answered
/// from a private, loopback, link-local, shared (CGNAT), unique-local or unspecified
/// address was not reached: a resolver on the way lied (a DNS-hijacking portal).
///
/// The documentation ranges (192.0.2.0/24, 198.51.100.0/24, 203.0.113.0/24,
/// 2001:db8::/32, 3fff::/20) are deliberately *not* interception: the netprobe lab,
/// and many test setups, use them for the "real" hosts.
public enum AddressClass: String, Sendable, CaseIterable {
    case global
    case documentation
    case privateUse = "private"   // 10/8, 172.16/12, 192.168/16
    case loopback                  // 127/8, ::1
    case linkLocal = "link-local"  // 169.254/16, fe80::/10
    case cgnat                     // 100.64/10 (RFC 6598 shared address space)
    case uniqueLocal = "ula"       // fc00::/7
    case unspecified               // 0/8, ::
    case multicast                 // 224/4, ff00::/8
    case reserved                  // 240/4 and the broadcast address

    /// A public name resolving here is evidence of DNS interception.
    public var isInterception: Bool {
        switch self {
        case .privateUse, .loopback, .linkLocal, .cgnat, .uniqueLocal, .unspecified: return true
        case .global, .documentation, .multicast, .reserved: return false
        }
    }

    /// Classifies a textual IPv4 or IPv6 address (brackets and a %zone are allowed);
    /// nil when the text is not an address.
    public static func of(_ text: String) -> AddressClass? {
        var address = Array(text.utf8)[...]
        if address.count >= 2, address.first == UInt8(ascii: "["), address.last == UInt8(ascii: "]") {
            address = address.dropFirst().dropLast()
        }
        if let percent = address.firstIndex(of: UInt8(ascii: "%")) { address = address[..<percent] }
        if let v4 = IPAddressText.ipv4(bytes: address) { return ipv4(v4) }
        if let v6 = IPAddressText.ipv6(bytes: address) { return ipv6(v6) }
        return nil
    }

    static func ipv4(_ b: [UInt8]) -> AddressClass {
        switch (b[0], b[1], b[2]) {
        case (0, _, _): return .unspecified
        case (10, _, _): return .privateUse
        case (100, 64...127, _): return .cgnat
        case (127, _, _): return .loopback
        case (169, 254, _): return .linkLocal
        case (172, 16...31, _): return .privateUse
        case (192, 168, _): return .privateUse
        case (192, 0, 2), (198, 51, 100), (203, 0, 113): return .documentation
        case (224...239, _, _): return .multicast
        case (240...255, _, _): return .reserved
        default: return .global
        }
    }

    static func ipv6(_ b: [UInt8]) -> AddressClass {
        if b.allSatisfy({ $0 == 0 }) { return .unspecified }
        if b[0..<15].allSatisfy({ $0 == 0 }) && b[15] == 1 { return .loopback }
        // IPv4-mapped (::ffff:a.b.c.d): what matters is the IPv4 address.
        if b[0..<10].allSatisfy({ $0 == 0 }) && b[10] == 0xFF && b[11] == 0xFF { return ipv4(Array(b[12..<16])) }
        if b[0] == 0xFE && b[1] & 0xC0 == 0x80 { return .linkLocal }
        if b[0] & 0xFE == 0xFC { return .uniqueLocal }
        if b[0] == 0xFF { return .multicast }
        if b[0] == 0x20 && b[1] == 0x01 && b[2] == 0x0D && b[3] == 0xB8 { return .documentation }
        if b[0] == 0x3F && b[1] == 0xFF && b[2] & 0xF0 == 0 { return .documentation }
        return .global
    }
}
