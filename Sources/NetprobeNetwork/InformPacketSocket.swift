#if canImport(Glibc)
import Glibc
#endif
import CLibc
import NetprobeWire

/// UDP port 68 of one interface seen from a packet socket, beside the DHCPINFORM's own UDP
/// socket. A DHCP client that keeps a socket connected to its server (NetworkManager's internal
/// one does: ciaddr:68 to server:67) is handed the server's unicast answer by the kernel, since
/// a connected socket's exact match wins over netprobe's bound one; the packet socket gets a
/// copy all the same. It needs CAP_NET_RAW: without it (or where the AF_PACKET family is
/// denied) there is none, and only answers the kernel gives netprobe's socket are seen.
struct InformPacketSocket {
    let descriptor: Int32

    /// The socket, or nil when the process may not open one.
    static func open(interface: String) -> InformPacketSocket? {
        let descriptor = np_udp_packet_socket(interface, DHCPMessage.clientPort)
        return descriptor >= 0 ? InformPacketSocket(descriptor: descriptor) : nil
    }

    /// The UDP payload of the packet waiting, when it is a DHCP server's datagram to `client`
    /// (or broadcast) on port 68; nil for anything else.
    func read(into buffer: inout [UInt8], client: [UInt8]) -> [UInt8]? {
        let count = buffer.withUnsafeMutableBytes { Glibc.recv(descriptor, $0.baseAddress, $0.count, 0) }
        guard count > 0, let packet = IPv4UDPPacket(Array(buffer[0..<count])),
              packet.sourcePort == DHCPMessage.serverPort, packet.destinationPort == DHCPMessage.clientPort,
              packet.destination == client || packet.destination == [255, 255, 255, 255] else { return nil }
        return packet.payload
    }
}
