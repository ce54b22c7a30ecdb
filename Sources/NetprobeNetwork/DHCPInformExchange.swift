#if canImport(Glibc)
import Glibc
#endif
import CLibc
import NetprobeWire
import NetprobeLinkState
import NetprobeVerdict

/// Sends one DHCPINFORM (RFC 2131 section 4.4.3) on an interface to the server that leased the
/// address, and waits for its DHCPACK: from the interface's address (ciaddr) and UDP port 68,
/// out of that interface, unicast; one retransmit halfway through the bound.
///
/// On a shared link every station hears the request, so an answer counts only from the lease's
/// server (its source address and option 54), for our transaction, chaddr and ciaddr
/// (`DHCPMessage.informAnswer`); anything else is counted and ignored. And the machine's own
/// DHCP client must lose nothing to us: the UDP socket is bound to the wildcard address with
/// no device, which the kernel only hands a datagram to when no socket is bound to the
/// address it was sent to (networkd, dhcpcd and NetworkManager bind theirs to the leased
/// address). Such a client's socket then takes the answer too, so it is read from a packet
/// socket on the interface when the process may open one (`InformPacketSocket`, CAP_NET_RAW),
/// which sees a copy of every datagram to port 68. Sends, never judges.
public enum DHCPInformExchange {
    public struct Outcome: Sendable, Equatable, Error {
        public var state: DHCPInformReport.State
        public var error: String?
        public var answer: DHCPMessage.InformAnswer?
        public var durationMs: Double?
        /// Answers to port 68 that were not the lease's server's answer to us.
        public var ignored = 0
        /// Why the last of them was not taken.
        public var ignoredReason: String?

        public init(state: DHCPInformReport.State, error: String? = nil, answer: DHCPMessage.InformAnswer? = nil,
                    durationMs: Double? = nil, ignored: Int = 0, ignoredReason: String? = nil) {
            self.state = state
            self.error = error
            self.answer = answer
            self.durationMs = durationMs
            self.ignored = ignored
            self.ignoredReason = ignoredReason
        }
    }

    /// Asks `server` (four bytes) on `interface` from `clientAddress` (four bytes), until
    /// `deadline` at the latest.
    public static func ask(interface: String, clientAddress: [UInt8], hardwareAddress: [UInt8]?, server: [UInt8],
                           deadline: ContinuousClock.Instant) -> Outcome {
        let start = ContinuousClock.now
        let index = if_nametoindex(interface)
        guard index != 0 else { return Outcome(state: .failed, error: "no interface \(interface)") }
        let socket: InformSocket
        switch InformSocket.open() {
        case .success(let opened): socket = opened
        case .failure(let outcome): return outcome
        }
        defer { Glibc.close(socket.descriptor) }
        // Opened before the DHCPINFORM goes, so no answer comes before it listens.
        let watcher = InformPacketSocket.open(interface: interface)
        defer { if let watcher { Glibc.close(watcher.descriptor) } }
        let transaction = UInt32.random(in: 1...UInt32.max)
        let expected = DHCPMessage.InformExpectation(transaction: transaction, clientAddress: clientAddress,
                                                     hardwareAddress: hardwareAddress, server: server)
        let message = DHCPMessage.inform(transaction: transaction, clientAddress: clientAddress,
                                         hardwareAddress: expected.hardwareAddress)
        let retransmitAt = min(deadline, start + DHCPInformReport.bound / 2)
        var buffer = [UInt8](repeating: 0, count: 1500)
        var refused = false
        var ignored = 0
        var ignoredReason: String?
        for attempt in 0..<2 {
            if let error = socket.send(message, to: server, from: clientAddress, interface: index) {
                return Outcome(state: .failed, error: "send: \(error)")
            }
            let until = attempt == 0 ? retransmitAt : deadline
            while let datagram = socket.receive(into: &buffer, deadline: until, watcher: watcher, client: clientAddress) {
                switch DHCPMessage.informAnswer(datagram.payload, from: datagram.source, expected: expected) {
                case .success(let answer):
                    return Outcome(state: .answered, answer: answer, durationMs: start.duration(to: .now).inMilliseconds,
                                   ignored: ignored, ignoredReason: ignoredReason)
                case .failure(.refused):
                    refused = true
                case .failure(let mismatch):
                    ignored += 1
                    ignoredReason = "\(IPAddressFormat.text(datagram.source[...])): \(mismatch.words)"
                }
            }
            if ContinuousClock.now >= deadline { break }
        }
        let waited = start.duration(to: .now).inMilliseconds
        let error = refused ? "the server answered DHCPNAK"
            : watcher == nil ? "no DHCPACK seen within \(Int(waited)) ms (without CAP_NET_RAW an answer the DHCP client's socket takes is not seen)"
            : "no DHCPACK within \(Int(waited)) ms"
        return Outcome(state: .noAnswer, error: error, durationMs: waited, ignored: ignored, ignoredReason: ignoredReason)
    }
}

/// A datagram to port 68 from port 67, with the address it came from.
struct InformDatagram {
    var source: [UInt8]
    var payload: [UInt8]
}

/// A UDP socket on port 68 of the wildcard address, bound to no device; closed by its owner.
struct InformSocket {
    let descriptor: Int32

    static func open() -> Result<InformSocket, DHCPInformExchange.Outcome> {
        let descriptor = Glibc.socket(AF_INET, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue)
                                      | Int32(SOCK_NONBLOCK.rawValue), 0)
        guard descriptor >= 0 else { return .failure(.init(state: .failed, error: "socket: \(errorText())")) }
        func fail(_ step: String) -> Result<InformSocket, DHCPInformExchange.Outcome> {
            let code = errno
            let text = String(cString: strerror(code))
            Glibc.close(descriptor)
            if code == EACCES || code == EPERM {
                return .failure(.init(state: .notPermitted, error: "\(step): \(text) (needs CAP_NET_BIND_SERVICE)"))
            }
            return .failure(.init(state: .failed, error: "\(step): \(text)"))
        }
        var on: Int32 = 1
        // The machine's DHCP client may hold port 68 too: sharing it is what SO_REUSEADDR is
        // for. Bound to the wildcard address and no device, this socket is the kernel's last
        // choice for a datagram to port 68 (it looks for a socket bound to the destination
        // address first): it never takes one that the client's socket would have had.
        guard setsockopt(descriptor, SOL_SOCKET, SO_REUSEADDR, &on, socklen_t(MemoryLayout<Int32>.size)) == 0 else {
            return fail("SO_REUSEADDR")
        }
        var local = socketAddress([0, 0, 0, 0], port: DHCPMessage.clientPort)
        let done = withUnsafePointer(to: &local) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                Glibc.bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard done == 0 else { return fail("bind 0.0.0.0:\(DHCPMessage.clientPort)") }
        return .success(InformSocket(descriptor: descriptor))
    }

    static func socketAddress(_ address: [UInt8], port: UInt16) -> sockaddr_in {
        var result = sockaddr_in()
        result.sin_family = sa_family_t(AF_INET)
        result.sin_port = port.bigEndian
        withUnsafeMutableBytes(of: &result.sin_addr) { $0.copyBytes(from: address) }
        return result
    }

    /// Sends the whole datagram to `server`:67 from `source`, out of interface `index`; nil when
    /// sent, else why not.
    func send(_ bytes: [UInt8], to server: [UInt8], from source: [UInt8], interface index: UInt32) -> String? {
        let sent = np_udp_send_from(descriptor, bytes, bytes.count, index, source, server, DHCPMessage.serverPort)
        return sent == bytes.count ? nil : String(cString: strerror(Int32(-sent)))
    }

    /// The next datagram to `client`:68 from a port 67, or nil once the deadline has passed.
    /// With a packet socket (`watcher`) every such datagram on the link is read there, once;
    /// what this socket receives is then drained unread.
    func receive(into buffer: inout [UInt8], deadline: ContinuousClock.Instant, watcher: InformPacketSocket?,
                 client: [UInt8]) -> InformDatagram? {
        while true {
            let left = ContinuousClock.now.duration(to: deadline)
            guard left > .zero else { return nil }
            var entries = [pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)]
            if let watcher { entries.append(pollfd(fd: watcher.descriptor, events: Int16(POLLIN), revents: 0)) }
            let ready = poll(&entries, nfds_t(entries.count), left.pollMilliseconds)
            if ready < 0 && errno != EINTR { return nil }
            guard ready > 0 else { continue }
            if entries.count > 1, entries[1].revents != 0, let watcher,
               let datagram = watcher.read(into: &buffer, client: client) {
                return datagram
            }
            guard entries[0].revents != 0 else { continue }
            var from = sockaddr_in()
            var size = socklen_t(MemoryLayout<sockaddr_in>.size)
            let count = buffer.withUnsafeMutableBytes { raw in
                withUnsafeMutablePointer(to: &from) { pointer in
                    pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                        Glibc.recvfrom(descriptor, raw.baseAddress, raw.count, 0, $0, &size)
                    }
                }
            }
            if count < 0 {
                if errno == EINTR || errno == EAGAIN { continue }
                return nil
            }
            guard watcher == nil, UInt16(bigEndian: from.sin_port) == DHCPMessage.serverPort else { continue }
            let source = withUnsafeBytes(of: from.sin_addr) { Array($0) }
            return InformDatagram(source: source, payload: Array(buffer[0..<count]))
        }
    }

    static func errorText() -> String {
        String(cString: strerror(errno))
    }
}
