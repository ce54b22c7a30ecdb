import CNetlink
import Glibc
import NetprobeWire
import NetprobeVerdict

/// One TCP socket of the machine as the kernel's socket table shows it (`ss -ti`): where it
/// goes and how its traffic fares. Nothing here was sent or asked of the network.
public struct TCPSocketInfo: Sendable, Equatable {
    public enum State: Sendable, Equatable {
        case established
        /// A connection being opened: its SYN not answered yet.
        case synSent
        case other
    }

    /// The kernel's identity of the socket (the same socket in two dumps).
    public var cookie: UInt64
    public var state: State
    /// 4 bytes (IPv4, an IPv4-mapped IPv6 address unwrapped) or 16.
    public var source: [UInt8]
    public var destination: [UInt8]
    public var destinationPort: Int
    /// Segments sent and not acknowledged.
    public var unacked: Int
    /// Retransmission timeouts in a row for the oldest unacknowledged segment (a SYN's retries):
    /// reset by any acknowledgement, so two or more mean nothing came back for that long.
    public var timeoutsInARow: Int
    /// Milliseconds since the socket last received data, and since it last received an
    /// acknowledgement: when its peer was last heard from, as a receiver and as a sender.
    public var sinceDataReceivedMs: Int
    public var sinceAckReceivedMs: Int
    /// Milliseconds since anything was received: the more recent of the two.
    public var sinceReceivedMs: Int { min(sinceDataReceivedMs, sinceAckReceivedMs) }
    /// Segments sent and received, and segments retransmitted, since the socket opened.
    public var segmentsOut: Int
    public var segmentsIn: Int
    public var retransmitted: Int
    /// Bytes the peer acknowledged, and bytes received in order, since the socket opened: what
    /// the connection delivered. A retransmitted segment received again adds nothing here.
    public var bytesAcked: UInt64
    public var bytesReceived: UInt64
    /// How the kernel routes to `destination` (`DestinationRoutes`): only a way out through a
    /// gateway says anything about the uplink.
    public var route: DestinationRoute
    /// Bytes received in order that the application has not read yet (inet_diag's rqueue): a
    /// reader slower than the link, or paused, leaves data here.
    public var receiveQueue: Int
    /// The receive window this end last advertised (tcp_info's rcv_wnd), nil where the kernel
    /// does not say (before Linux 6.2); below one segment (`receiveMss`), the sender may not send.
    public var receiveWindow: Int?
    public var receiveMss: Int

    public init(cookie: UInt64, state: State, source: [UInt8], destination: [UInt8], destinationPort: Int = 443, unacked: Int = 0,
                timeoutsInARow: Int = 0, sinceDataReceivedMs: Int = 0, sinceAckReceivedMs: Int = 0, segmentsOut: Int = 0,
                segmentsIn: Int = 0, retransmitted: Int = 0, bytesAcked: UInt64 = 0, bytesReceived: UInt64 = 0,
                route: DestinationRoute = .viaGateway, receiveQueue: Int = 0, receiveWindow: Int? = nil, receiveMss: Int = 1_448) {
        self.cookie = cookie
        self.state = state
        self.source = source
        self.destination = destination
        self.destinationPort = destinationPort
        self.unacked = unacked
        self.timeoutsInARow = timeoutsInARow
        self.sinceDataReceivedMs = sinceDataReceivedMs
        self.sinceAckReceivedMs = sinceAckReceivedMs
        self.segmentsOut = segmentsOut
        self.segmentsIn = segmentsIn
        self.retransmitted = retransmitted
        self.bytesAcked = bytesAcked
        self.bytesReceived = bytesReceived
        self.route = route
        self.receiveQueue = receiveQueue
        self.receiveWindow = receiveWindow
        self.receiveMss = receiveMss
    }
}

public struct TCPSocketTableError: Error, CustomStringConvertible {
    public var operation: String
    public var code: Int32
    public var description: String { "\(operation): \(String(cString: strerror(code)))" }
}

/// The machine's TCP sockets that carry traffic, established or opening, with their tcp_info,
/// through one NETLINK_SOCK_DIAG socket (inet_diag, INET_DIAG_INFO): a dump of both families,
/// two requests and their answers, no privilege needed. With no such sockets the answer is
/// two empty datagrams.
///
/// Where the socket table is read: the kernel (`TCPSocketTable`), or a script in tests.
public protocol TCPSocketSource: AnyObject {
    /// The sockets, each with the route to its destination.
    func sockets() throws -> [TCPSocketInfo]
    /// The routes may have changed (a check ran): destinations are asked again.
    func routesChanged()
}

/// Not Sendable: one owner, one thread.
public final class TCPSocketTable: TCPSocketSource {
    private let descriptor: Int32
    private var buffer = [UInt8](repeating: 0, count: 32 * 1024)
    private var parsed: [cnetlink_tcp_socket]
    private let routes = DestinationRoutes()
    /// The most sockets one dump returns; the rest are counted (`dropped`) and left out.
    public static let capacity = 16_384
    public private(set) var dropped = 0

    public init() throws(TCPSocketTableError) {
        let fd = cnetlink_diag_open()
        guard fd >= 0 else { throw TCPSocketTableError(operation: "socket(NETLINK_SOCK_DIAG)", code: -fd) }
        descriptor = fd
        parsed = []
    }

    deinit {
        close(descriptor)
    }

    /// The established and opening TCP sockets of this network namespace, both families.
    public func sockets() throws(TCPSocketTableError) -> [TCPSocketInfo] {
        var all: [TCPSocketInfo] = []
        dropped = 0
        // TCPF_ESTABLISHED | TCPF_SYN_SENT: the states in which traffic waits for an answer.
        let states: UInt32 = (1 << 1) | (1 << 2)
        for family in [AF_INET, AF_INET6] {
            let sent = cnetlink_diag_request(descriptor, Int32(family), states)
            guard sent == 0 else { throw TCPSocketTableError(operation: "sock_diag request", code: -sent) }
            try receive(into: &all)
        }
        return all
    }

    public func routesChanged() {
        routes.forget()
    }

    private func receive(into all: inout [TCPSocketInfo]) throws(TCPSocketTableError) {
        while true {
            let length = buffer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
            if length < 0 {
                if errno == EINTR { continue }
                throw TCPSocketTableError(operation: "sock_diag receive", code: errno)
            }
            // One datagram holds at most as many sockets as fit in the buffer: room for them all.
            var count: Int32 = 0
            let room = length / MemoryLayout<inet_diag_msg>.size + 1
            if parsed.count < room { parsed = Array(repeating: cnetlink_tcp_socket(), count: room) }
            let status = buffer.withUnsafeBytes { bytes in
                parsed.withUnsafeMutableBufferPointer { out in
                    cnetlink_diag_parse(bytes.baseAddress, Int32(length), out.baseAddress, Int32(out.count), &count)
                }
            }
            if status < 0 { throw TCPSocketTableError(operation: "sock_diag answer", code: -status) }
            for index in 0..<min(Int(count), parsed.count) {
                if all.count >= Self.capacity {
                    dropped += 1
                } else if var socket = Self.info(parsed[index]) {
                    socket.route = routes.route(to: socket.destination)
                    all.append(socket)
                }
            }
            if status == 1 || length == 0 { return }
        }
    }

    private static func info(_ raw: cnetlink_tcp_socket) -> TCPSocketInfo? {
        guard raw.has_info != 0 else { return nil }
        let info = raw.info
        func address(_ tuple: (UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8))
            -> [UInt8] {
            let bytes = withUnsafeBytes(of: tuple) { Array($0) }
            if Int32(raw.family) == AF_INET { return Array(bytes[0..<4]) }
            // ::ffff:a.b.c.d, an IPv4 connection of an IPv6 socket: the IPv4 address it is.
            if bytes[0..<10].allSatisfy({ $0 == 0 }) && bytes[10] == 0xFF && bytes[11] == 0xFF { return Array(bytes[12..<16]) }
            return bytes
        }
        let state: TCPSocketInfo.State = raw.state == 1 ? .established : raw.state == 2 ? .synSent : .other
        return TCPSocketInfo(cookie: raw.cookie, state: state, source: address(raw.source), destination: address(raw.destination),
                             destinationPort: Int(raw.destination_port), unacked: Int(info.unacked),
                             timeoutsInARow: Int(info.retransmits),
                             sinceDataReceivedMs: Int(info.last_data_recv), sinceAckReceivedMs: Int(info.last_ack_recv),
                             segmentsOut: Int(info.segs_out), segmentsIn: Int(info.segs_in), retransmitted: Int(info.total_retrans),
                             bytesAcked: info.bytes_acked, bytesReceived: info.bytes_received, receiveQueue: Int(raw.receive_queue),
                             receiveWindow: raw.has_receive_window != 0 ? Int(info.rcv_wnd) : nil, receiveMss: Int(info.rcv_mss))
    }
}
