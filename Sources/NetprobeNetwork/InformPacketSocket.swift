#if canImport(Glibc)
import Glibc
#endif
import CLibc
import NetprobeWire
import NetprobeLinkState

/// UDP port 68 of one interface seen from a packet socket, beside the DHCPINFORM's own UDP
/// socket. A DHCP client that keeps a socket bound to its leased address (networkd, dhcpcd,
/// NetworkManager's internal one connected to its server) is handed the server's unicast
/// answer by the kernel, never netprobe's wildcard socket; the packet socket gets a copy all
/// the same. It needs CAP_NET_RAW: without it (or where the AF_PACKET family is denied) there
/// is none, and only answers no other program's socket takes are seen.
struct InformPacketSocket {
    let descriptor: Int32

    /// The socket, or nil when the process may not open one.
    static func open(interface: String) -> InformPacketSocket? {
        let descriptor = np_udp_packet_socket(interface, DHCPMessage.clientPort)
        return descriptor >= 0 ? InformPacketSocket(descriptor: descriptor) : nil
    }

    /// The packet waiting, when it is a whole datagram from a port 67 to `client`:68 whose
    /// checksums hold; nil for anything else (a broadcast included: the server answers a
    /// DHCPINFORM at ciaddr, RFC 2131 section 4.3.5).
    func read(into buffer: inout [UInt8], client: [UInt8]) -> InformDatagram? {
        var ready: Int32 = 1
        let count = buffer.withUnsafeMutableBytes { raw in
            np_packet_receive(descriptor, raw.baseAddress?.assumingMemoryBound(to: UInt8.self), raw.count, &ready)
        }
        guard count > 0, let packet = IPv4UDPPacket(Array(buffer[0..<Int(count)]), checksumReady: ready != 0),
              packet.sourcePort == DHCPMessage.serverPort, packet.destinationPort == DHCPMessage.clientPort,
              packet.destination == client else { return nil }
        return InformDatagram(source: packet.source, payload: packet.payload)
    }
}
