import NetprobeWire

/// An IPv4 packet carrying one whole UDP datagram, as a packet socket hands it over from its IP
/// header on (RFC 791, RFC 768). Read to find a DHCP server's answer that another program's
/// connected socket takes from netprobe's: every length is checked against the bytes there,
/// the IP header checksum is verified, and a fragment is refused (the DHCP answer it would be
/// part of cannot be read from one piece). The UDP checksum is verified too, unless the kernel
/// says it has not been computed yet (`checksumReady` false: a packet from this machine or a
/// virtual link whose sender left it to a device that never computes it, which the kernel
/// marks as such) or the sender sent none (zero, which RFC 768 allows over IPv4).
public struct IPv4UDPPacket: Sendable, Equatable {
    public var source: [UInt8]
    public var destination: [UInt8]
    public var sourcePort: UInt16
    public var destinationPort: UInt16
    /// The UDP payload, as long as the UDP header says (link padding after it dropped).
    public var payload: [UInt8]

    public init?(_ packet: [UInt8], checksumReady: Bool = true) {
        guard packet.count >= 20, packet[0] >> 4 == 4 else { return nil }
        let headerLength = Int(packet[0] & 0x0F) * 4
        let totalLength = Self.word(packet, 2)
        guard headerLength >= 20, totalLength >= headerLength + 8, totalLength <= packet.count,
              packet[9] == 17, Self.word(packet, 6) & 0x3FFF == 0,
              Self.checksum(packet[0..<headerLength]) == 0xFFFF else { return nil }
        let udpLength = Self.word(packet, headerLength + 4)
        guard udpLength >= 8, udpLength <= totalLength - headerLength else { return nil }
        source = Array(packet[12..<16])
        destination = Array(packet[16..<20])
        sourcePort = UInt16(Self.word(packet, headerLength))
        destinationPort = UInt16(Self.word(packet, headerLength + 2))
        payload = Array(packet[(headerLength + 8)..<(headerLength + udpLength)])
        let sent = Self.word(packet, headerLength + 6)
        if checksumReady && sent != 0 && !Self.udpChecksumHolds(packet[headerLength..<(headerLength + udpLength)],
                                                                 source: source, destination: destination) {
            return nil
        }
    }

    /// RFC 768: the ones' complement sum over the pseudo-header (addresses, protocol, UDP
    /// length) and the datagram, its checksum field included, is 0xFFFF when the checksum holds.
    static func udpChecksumHolds(_ datagram: ArraySlice<UInt8>, source: [UInt8], destination: [UInt8]) -> Bool {
        let length = datagram.count
        let pseudo = source + destination + [0, 17, UInt8(length >> 8), UInt8(length & 0xFF)]
        // The pseudo-header is 12 bytes, an even count: its words and the datagram's line up.
        var sum = Int(checksum(pseudo[...])) + Int(checksum(datagram))
        while sum > 0xFFFF { sum = (sum & 0xFFFF) + (sum >> 16) }
        return sum == 0xFFFF
    }

    private static func word(_ bytes: [UInt8], _ at: Int) -> Int {
        Int(bytes[at]) << 8 | Int(bytes[at + 1])
    }

    /// The ones' complement sum of 16-bit words (RFC 1071): 0xFFFF over a header whose
    /// checksum field is right.
    static func checksum(_ bytes: ArraySlice<UInt8>) -> UInt16 {
        var sum = 0
        var index = bytes.startIndex
        while index + 1 < bytes.endIndex {
            sum += Int(bytes[index]) << 8 | Int(bytes[index + 1])
            index += 2
        }
        if index < bytes.endIndex { sum += Int(bytes[index]) << 8 }
        while sum > 0xFFFF { sum = (sum & 0xFFFF) + (sum >> 16) }
        return UInt16(sum)
    }
}
