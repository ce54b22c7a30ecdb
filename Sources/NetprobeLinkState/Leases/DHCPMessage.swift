import NetprobeWire

/// The options of a raw DHCPv4 message (RFC 2131/2132), as dhcpcd keeps the server's answer
/// in its lease file: BOOTP header, magic cookie, then options. Only what netprobe reads.
public enum DHCPMessage {
    public static let captivePortalOption: UInt8 = 114
    public static let leaseTimeOption: UInt8 = 51
    public static let domainNameServersOption: UInt8 = 6

    /// The DHCP options of a BOOTP message (first occurrence of each; no overload support),
    /// or nil when it is not one.
    public static func options(_ message: [UInt8]) -> [UInt8: [UInt8]]? {
        let cookie: [UInt8] = [99, 130, 83, 99]
        guard message.count >= 240, Array(message[236..<240]) == cookie else { return nil }
        var result: [UInt8: [UInt8]] = [:]
        var index = 240
        while index < message.count {
            let code = message[index]
            if code == 255 { break }
            if code == 0 { index += 1; continue }
            guard index + 1 < message.count else { break }
            let length = Int(message[index + 1])
            let start = index + 2
            guard start + length <= message.count else { break }
            if result[code] == nil { result[code] = Array(message[start..<(start + length)]) }
            index = start + length
        }
        return result
    }

    /// The address the server gave (BOOTP `yiaddr`); nil when it is none (0.0.0.0) or the
    /// message is too short to be one.
    public static func yourAddress(_ message: [UInt8]) -> String? {
        guard message.count >= 240, message[16..<20].contains(where: { $0 != 0 }) else { return nil }
        return IPAddressFormat.text(message[16..<20])
    }

    /// Option 51, in seconds; nil when absent or malformed. `UInt32.max` means infinite.
    public static func leaseTime(_ options: [UInt8: [UInt8]]) -> UInt32? {
        guard let time = options[leaseTimeOption], time.count == 4 else { return nil }
        return time.reduce(0) { $0 << 8 | UInt32($1) }
    }

    /// Option 6: IPv4 resolvers, four bytes each; nil when absent or not a multiple of four.
    public static func nameServers(_ options: [UInt8: [UInt8]]) -> [String]? {
        guard let raw = options[domainNameServersOption], !raw.isEmpty, raw.count % 4 == 0 else { return nil }
        return stride(from: 0, to: raw.count, by: 4).map { IPAddressFormat.text(raw[$0..<($0 + 4)]) }
    }

    /// Option 114 as a URI candidate.
    public static func captivePortal(_ options: [UInt8: [UInt8]]) -> String? {
        options[captivePortalOption].flatMap(uri)
    }

    /// A URI from option bytes: UTF-8, trailing NULs dropped, no control characters or spaces.
    /// Only a candidate: the Captive Portal API query decides whether it is usable.
    public static func uri(_ raw: [UInt8]) -> String? {
        var bytes = raw
        while bytes.last == 0 { bytes.removeLast() }
        guard !bytes.isEmpty, bytes.allSatisfy({ $0 >= 0x21 && $0 != 0x7F }),
              let text = String(validating: bytes, as: UTF8.self) else { return nil }
        return text
    }
}
