import NetprobeWire

/// The options of a raw DHCPv6 message (RFC 8415), as dhcpcd keeps the server's reply in its
/// `.lease6` file: message type, transaction ID, then options of a 16-bit code and length.
/// Only what netprobe reads: the addresses leased (IA_NA's IAADDR), the resolvers (option 23,
/// RFC 3646) and the Captive Portal API (option 103, RFC 8910).
public enum DHCPv6Message {
    static let iaNAOption: UInt16 = 3
    static let iaAddressOption: UInt16 = 5
    public static let dnsServersOption: UInt16 = 23
    public static let captivePortalOption: UInt16 = 103

    /// The options of a message (first occurrence of each), or nil when it is too short to be one.
    public static func options(_ message: [UInt8]) -> [UInt16: [UInt8]]? {
        guard message.count >= 4 else { return nil }
        return options(in: message[4...])
    }

    /// Options laid end to end (a message's, or those nested in an IA_NA or IAADDR); a
    /// truncated last option ends the list.
    static func options(in bytes: ArraySlice<UInt8>) -> [UInt16: [UInt8]] {
        var result: [UInt16: [UInt8]] = [:]
        var index = bytes.startIndex
        while index + 4 <= bytes.endIndex {
            let code = UInt16(bytes[index]) << 8 | UInt16(bytes[index + 1])
            let length = Int(bytes[index + 2]) << 8 | Int(bytes[index + 3])
            let start = index + 4
            guard start + length <= bytes.endIndex else { break }
            if result[code] == nil { result[code] = Array(bytes[start..<(start + length)]) }
            index = start + length
        }
        return result
    }

    /// Option 23: IPv6 resolvers, sixteen bytes each; nil when absent or not a multiple of 16.
    public static func nameServers(_ options: [UInt16: [UInt8]]) -> [String]? {
        guard let raw = options[dnsServersOption], !raw.isEmpty, raw.count % 16 == 0 else { return nil }
        return stride(from: 0, to: raw.count, by: 16).map { IPAddressFormat.text(raw[$0..<($0 + 16)]) }
    }

    /// Option 103 as a URI candidate (`DHCPMessage.uri`).
    public static func captivePortal(_ options: [UInt16: [UInt8]]) -> String? {
        options[captivePortalOption].flatMap(DHCPMessage.uri)
    }

    /// An address the server leased, with its valid lifetime in seconds (`UInt32.max`: infinite).
    public struct LeasedAddress: Sendable, Equatable {
        public var address: String
        public var validLifetime: UInt32
    }

    /// The addresses of the first IA_NA (IAADDR options after its 12-byte IAID, T1 and T2).
    /// An IA_NA holds several IAADDRs when the server renumbers; each is read.
    public static func leasedAddresses(_ options: [UInt16: [UInt8]]) -> [LeasedAddress] {
        guard let ia = options[iaNAOption], ia.count >= 12 else { return [] }
        var addresses: [LeasedAddress] = []
        var index = 12
        while index + 4 <= ia.count {
            let code = UInt16(ia[index]) << 8 | UInt16(ia[index + 1])
            let length = Int(ia[index + 2]) << 8 | Int(ia[index + 3])
            let start = index + 4
            guard start + length <= ia.count else { break }
            if code == iaAddressOption && length >= 24 {
                let valid = ia[(start + 20)..<(start + 24)].reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
                addresses.append(LeasedAddress(address: IPAddressFormat.text(ia[start..<(start + 16)]), validLifetime: valid))
            }
            index = start + length
        }
        return addresses
    }
}
