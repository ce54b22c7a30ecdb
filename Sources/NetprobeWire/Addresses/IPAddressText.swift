/// The one parser of textual IP addresses: libcurl's reports, URL hosts, NO_PROXY entries,
/// resolv.conf's name servers. Pure Swift, so the fuzz targets and every module share it.
/// It reads UTF-8 bytes: Character-by-Character parsing cost every probe result dearly, in
/// each of the verdict's re-evaluations.
///
/// Where the text comes from decides two rules, each a parameter: whether and how an IPv6
/// zone may follow the address, and whether an IPv4 octet may start with a zero.
public enum IPAddressText {
    /// How a zone (RFC 4007: which link a link-local address is on) may follow an IPv6 address.
    public enum Zone: Sendable {
        /// No zone: the text is the address alone.
        case none
        /// `fe80::1%eth0`: a bare address text (resolv.conf, ip(8)); the zone is any non-empty text.
        case plain
        /// `fe80::1%25eth0`: inside a URL's brackets (RFC 6874), where `%` itself is written
        /// `%25`; the zone is unreserved characters or %XX.
        case urlEncoded
    }

    /// How IPv4 octets may be written.
    public enum Octets: Sendable {
        /// One to three decimal digits, leading zeros allowed ("010" is ten).
        case lenient
        /// No leading zero ("0" but not "00" or "010"): RFC 3986's dec-octet and inet_pton(3),
        /// since some readers take "010" as octal, eight.
        case strict
    }

    /// Four bytes for an IPv4 address, sixteen for an IPv6 one, or nil.
    public static func address(_ text: String, zone: Zone = .none, octets: Octets = .lenient) -> [UInt8]? {
        let bytes = Array(text.utf8)[...]
        return ipv4(bytes: bytes, octets: octets) ?? ipv6(bytes: bytes, zone: zone, octets: octets)
    }

    static func ipv4(_ text: Substring) -> [UInt8]? { ipv4(bytes: Array(text.utf8)[...]) }
    static func ipv6(_ text: Substring) -> [UInt8]? { ipv6(bytes: Array(text.utf8)[...]) }

    /// Four decimal octets, 1-3 digits each.
    package static func ipv4(bytes: ArraySlice<UInt8>, octets: Octets = .lenient) -> [UInt8]? {
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
                // A digit after a first "0": a leading zero.
                if octets == .strict && digits > 0 && value == 0 { return nil }
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

    /// Sixteen bytes from RFC 4291 text: hex groups, at most one "::", an optional dotted IPv4
    /// tail; then a zone if `zone` allows one (the zone does not change the bytes).
    package static func ipv6(bytes text: ArraySlice<UInt8>, zone: Zone = .none, octets: Octets = .lenient) -> [UInt8]? {
        var bytes = text
        if let percent = text.firstIndex(of: UInt8(ascii: "%")) {
            guard isZone(text[percent...], zone) else { return nil }
            bytes = text[..<percent]
        }
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
            guard let all = groups(halves[0], ipv4Tail: octets), all.count == 16 else { return nil }
            return all
        }
        guard let head = groups(halves[0], ipv4Tail: nil), let tail = groups(halves[1], ipv4Tail: octets),
              head.count + tail.count <= 14 else { return nil }
        return head + [UInt8](repeating: 0, count: 16 - head.count - tail.count) + tail
    }

    /// `suffix` starts with "%": whether it is a zone `zone` accepts.
    private static func isZone(_ suffix: ArraySlice<UInt8>, _ zone: Zone) -> Bool {
        switch zone {
        case .none:
            return false
        case .plain:
            return suffix.count > 1
        case .urlEncoded:
            let name = suffix.dropFirst(3)
            return suffix.starts(with: "%25".utf8) && !name.isEmpty && URLSyntax.valid(name, extra: "", subDelims: false)
        }
    }

    /// Colon-separated groups of 1-4 hex digits, the last one a dotted IPv4 address written
    /// as `ipv4Tail` says, or none when it is nil.
    private static func groups(_ part: ArraySlice<UInt8>, ipv4Tail: Octets?) -> [UInt8]? {
        if part.isEmpty { return [] }
        var out: [UInt8] = []
        let pieces = part.split(separator: UInt8(ascii: ":"), omittingEmptySubsequences: false)
        for (index, piece) in pieces.enumerated() {
            if let ipv4Tail, index == pieces.count - 1 && piece.contains(UInt8(ascii: ".")) {
                guard let v4 = ipv4(bytes: piece, octets: ipv4Tail) else { return nil }
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
