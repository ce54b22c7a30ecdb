import CNetlink
import Glibc
import NetprobeWire
import NetprobeVerdict

/// Converts libnl `nl_addr` values (borrowed pointers) into plain strings.
enum NetlinkAddress {
    /// The bare IP address ("192.0.2.1", "2001:db8::1"), without the "/prefix"
    /// that nl_addr2str() would append; nil when it is not an IPv4/IPv6 address.
    static func ipString(_ address: OpaquePointer?) -> String? {
        guard let address, let bytes = nl_addr_get_binary_addr(address) else { return nil }
        let family = nl_addr_get_family(address)
        let length = Int(nl_addr_get_len(address))
        switch family {
        case AF_INET where length == 4: return ntop(AF_INET, bytes)
        case AF_INET6 where length == 16: return ntop(AF_INET6, bytes)
        default: return nil
        }
    }

    static func family(_ address: OpaquePointer?) -> AddressFamily? {
        guard let address else { return nil }
        return family(rawFamily: nl_addr_get_family(address))
    }

    static func family(rawFamily: Int32) -> AddressFamily? {
        switch rawFamily {
        case AF_INET: .ipv4
        case AF_INET6: .ipv6
        default: nil
        }
    }

    /// Link-layer address as "aa:bb:cc:dd:ee:ff"; nil when absent or all zeros
    /// (loopback and most tunnels report zeros, which identify nothing).
    static func hardwareString(_ address: OpaquePointer?) -> String? {
        guard let address, let raw = nl_addr_get_binary_addr(address) else { return nil }
        let length = Int(nl_addr_get_len(address))
        guard length > 0 else { return nil }
        let bytes = UnsafeRawBufferPointer(start: raw, count: length)
        guard bytes.contains(where: { $0 != 0 }) else { return nil }
        // Written byte by byte: String(radix:) per byte and a join are slow, and every
        // interface has an address on every check.
        var text: [UInt8] = []
        text.reserveCapacity(3 * length)
        for (position, byte) in bytes.enumerated() {
            if position > 0 { text.append(UInt8(ascii: ":")) }
            text.append(HexDigit.lowercase(byte >> 4))
            text.append(HexDigit.lowercase(byte & 0xF))
        }
        return String(decoding: text, as: UTF8.self)
    }

    private static func ntop(_ family: Int32, _ bytes: UnsafeMutableRawPointer) -> String? {
        var buffer = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN))
        guard inet_ntop(family, bytes, &buffer, socklen_t(buffer.count)) != nil else { return nil }
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
