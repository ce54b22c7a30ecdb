@testable import NetprobeWire
@testable import NetprobeLinkState
import Testing

/// The IP and UDP headers around a DHCP server's answer as a packet socket hands it over:
/// only a whole, unfragmented UDP datagram whose lengths and IP checksum hold is read.
@Suite struct DHCPInformPacketTests {
    static let payload: [UInt8] = DHCPInformTests.reply(options: DHCPInformTests.ack)

    /// An IPv4 packet from 198.51.100.1:67 to 198.51.100.2:68 with a right header checksum unless
    /// told otherwise; `udpLength` and `totalLength` override the lengths written.
    static func packet(protocolNumber: UInt8 = 17, flagsAndOffset: UInt16 = 0x4000, ipOptions: [UInt8] = [],
                       udpLength: Int? = nil, totalLength: Int? = nil, padding: Int = 0,
                       breakChecksum: Bool = false, udpChecksum: UDPChecksum = .none) -> [UInt8] {
        let headerLength = 20 + ipOptions.count
        let udp = udpLength ?? 8 + payload.count
        let total = totalLength ?? headerLength + 8 + payload.count
        var header: [UInt8] = [0x40 | UInt8(headerLength / 4), 0, UInt8(total >> 8), UInt8(total & 0xFF), 0x12, 0x34,
                               UInt8(flagsAndOffset >> 8), UInt8(flagsAndOffset & 0xFF), 64, protocolNumber, 0, 0,
                               198, 51, 100, 1, 198, 51, 100, 2] + ipOptions
        let sum = ~IPv4UDPPacket.checksum(header[...]) &+ (breakChecksum ? 1 : 0)
        header[10] = UInt8(sum >> 8)
        header[11] = UInt8(sum & 0xFF)
        var udpHeader: [UInt8] = [0, 67, 0, 68, UInt8(udp >> 8), UInt8(udp & 0xFF), 0, 0]
        if udpChecksum != .none {
            let length = 8 + payload.count
            let pseudo: [UInt8] = [198, 51, 100, 1, 198, 51, 100, 2, 0, 17, UInt8(length >> 8), UInt8(length & 0xFF)]
            var sum = Int(IPv4UDPPacket.checksum(pseudo[...])) + Int(IPv4UDPPacket.checksum((udpHeader + payload)[...]))
            while sum > 0xFFFF { sum = (sum & 0xFFFF) + (sum >> 16) }
            let value = ~UInt16(sum) &+ (udpChecksum == .wrong ? 1 : 0)
            udpHeader[6] = UInt8(value >> 8)
            udpHeader[7] = UInt8(value & 0xFF)
        }
        return header + udpHeader + payload + [UInt8](repeating: 0, count: padding)
    }

    @Test func aWholeDatagramGivesItsAddressesPortsAndPayload() throws {
        let read = try #require(IPv4UDPPacket(Self.packet()))
        #expect(read.source == [198, 51, 100, 1] && read.destination == [198, 51, 100, 2])
        #expect(read.sourcePort == 67 && read.destinationPort == 68)
        #expect(read.payload == Self.payload)
        #expect(DHCPMessage.informAnswer(read.payload, from: read.source, expected: DHCPInformTests.expected).map(\.server)
                == .success("198.51.100.1"))
    }

    enum UDPChecksum { case none, right, wrong }

    /// A UDP checksum is verified when the kernel computed it; one left to hardware that never
    /// computes it on a virtual link (the kernel says so) is not, and zero means none was sent.
    @Test func theUDPChecksumHoldsWhenTheKernelSaysItIsThere() {
        #expect(IPv4UDPPacket(Self.packet(udpChecksum: .right)) != nil)
        #expect(IPv4UDPPacket(Self.packet(udpChecksum: .wrong)) == nil)
        #expect(IPv4UDPPacket(Self.packet(udpChecksum: .wrong), checksumReady: false) != nil)
        #expect(IPv4UDPPacket(Self.packet(udpChecksum: .none)) != nil)
    }

    @Test func ipOptionsAndLinkPaddingAreSkipped() throws {
        let read = try #require(IPv4UDPPacket(Self.packet(ipOptions: [1, 1, 1, 0], padding: 18)))
        #expect(read.payload == Self.payload)
    }

    @Test(arguments: [
        ("not UDP", packet(protocolNumber: 6)),
        ("a first fragment", packet(flagsAndOffset: 0x2000)),
        ("a later fragment", packet(flagsAndOffset: 0x0010)),
        ("a wrong header checksum", packet(breakChecksum: true)),
        ("a total length past the bytes", packet(totalLength: 20 + 8 + payload.count + 1)),
        ("a total length shorter than the headers", packet(totalLength: 27)),
        ("a UDP length past the IP packet", packet(udpLength: 8 + payload.count + 1)),
        ("a UDP length under its header", packet(udpLength: 7)),
        ("cut inside the IP header", Array(packet()[0..<19])),
        ("IPv6", [0x60] + Array(packet().dropFirst())),
    ])
    func anythingElseIsRefused(_ why: String, _ bytes: [UInt8]) {
        #expect(IPv4UDPPacket(bytes) == nil, "\(why)")
    }
}
