
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

/// Strict parsers for textual IP addresses, as libcurl reports them (no C needed). They
/// read UTF-8 bytes: Character-by-Character parsing cost every probe result about 17k
/// instructions per address, in each of the verdict's re-evaluations (issue 13).
enum IPAddressText {
    static func ipv4(_ text: Substring) -> [UInt8]? { ipv4(bytes: Array(text.utf8)[...]) }
    static func ipv6(_ text: Substring) -> [UInt8]? { ipv6(bytes: Array(text.utf8)[...]) }

    /// Four decimal octets, 1-3 digits each.
    static func ipv4(bytes: ArraySlice<UInt8>) -> [UInt8]? {
        var out: [UInt8] = []
        out.reserveCapacity(4)
        var value = 0, digits = 0
        for byte in bytes {
            if byte == UInt8(ascii: ".") {
                guard digits > 0, value <= 255, out.count < 3 else { return nil }
                out.append(UInt8(value))
                value = 0
                digits = 0
            } else if let digit = decimal(byte), digits < 3 {
                value = value * 10 + digit
                digits += 1
            } else {
                return nil
            }
        }
        guard digits > 0, value <= 255, out.count == 3 else { return nil }
        out.append(UInt8(value))
        return out
    }

    /// Sixteen bytes from RFC 4291 text: hex groups, at most one "::", an optional dotted IPv4 tail.
    static func ipv6(bytes: ArraySlice<UInt8>) -> [UInt8]? {
        let colon = UInt8(ascii: ":")
        guard bytes.count <= 45, bytes.contains(colon) else { return nil }
        var halves: [ArraySlice<UInt8>] = []
        var start = bytes.startIndex, index = bytes.startIndex
        while index < bytes.endIndex {
            if bytes[index] == colon, index + 1 < bytes.endIndex, bytes[index + 1] == colon {
                halves.append(bytes[start..<index])
                index += 2
                start = index
            } else {
                index += 1
            }
        }
        halves.append(bytes[start...])
        guard halves.count <= 2 else { return nil }
        if halves.count == 1 {
            guard let all = groups(halves[0], allowIPv4Tail: true), all.count == 16 else { return nil }
            return all
        }
        guard let head = groups(halves[0], allowIPv4Tail: false), let tail = groups(halves[1], allowIPv4Tail: true),
              head.count + tail.count <= 14 else { return nil }
        return head + [UInt8](repeating: 0, count: 16 - head.count - tail.count) + tail
    }

    /// Colon-separated groups of 1-4 hex digits, the last one a dotted IPv4 address if allowed.
    private static func groups(_ part: ArraySlice<UInt8>, allowIPv4Tail: Bool) -> [UInt8]? {
        if part.isEmpty { return [] }
        var out: [UInt8] = []
        let pieces = part.split(separator: UInt8(ascii: ":"), omittingEmptySubsequences: false)
        for (index, piece) in pieces.enumerated() {
            if allowIPv4Tail && index == pieces.count - 1 && piece.contains(UInt8(ascii: ".")) {
                guard let v4 = ipv4(bytes: piece) else { return nil }
                out += v4
            } else {
                guard (1...4).contains(piece.count) else { return nil }
                var value = 0
                for byte in piece {
                    guard let digit = hex(byte) else { return nil }
                    value = value << 4 | digit
                }
                out += [UInt8(value >> 8), UInt8(value & 0xFF)]
            }
        }
        return out
    }

    private static func decimal(_ byte: UInt8) -> Int? {
        byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") ? Int(byte - UInt8(ascii: "0")) : nil
    }

    private static func hex(_ byte: UInt8) -> Int? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return Int(byte - UInt8(ascii: "0"))
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return Int(byte - UInt8(ascii: "a")) + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return Int(byte - UInt8(ascii: "A")) + 10
        default: return nil
        }
    }
}
