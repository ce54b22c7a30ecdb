#if canImport(Glibc)
import Glibc
#endif
import NetprobeWire
import NetprobeVerdict

/// Sends one DHCPINFORM (RFC 2131 section 4.4.3) on an interface and waits for the DHCPACK:
/// from the interface's address (ciaddr) and UDP port 68, bound to the interface, to the
/// server when its address is known, else broadcast; one retransmit halfway through the
/// bound. Only an answer to our transaction counts, from the UDP socket or, when the process
/// may open one, a packet socket on the interface (`InformPacketSocket`: another DHCP client's
/// connected socket may take the answer from ours). Sends, never judges.
public enum DHCPInformExchange {
    public struct Outcome: Sendable, Equatable, Error {
        public var state: DHCPInformReport.State
        public var error: String?
        public var answer: DHCPMessage.InformAnswer?
        public var durationMs: Double?

        public init(state: DHCPInformReport.State, error: String? = nil, answer: DHCPMessage.InformAnswer? = nil,
                    durationMs: Double? = nil) {
            self.state = state
            self.error = error
            self.answer = answer
            self.durationMs = durationMs
        }
    }

    /// Asks on `interface` from `clientAddress` (four bytes), until `deadline` at the latest.
    public static func ask(interface: String, clientAddress: [UInt8], hardwareAddress: [UInt8]?, server: [UInt8]? = nil,
                           deadline: ContinuousClock.Instant) -> Outcome {
        let start = ContinuousClock.now
        let socket: InformSocket
        switch InformSocket.open(interface: interface, address: clientAddress) {
        case .success(let opened): socket = opened
        case .failure(let outcome): return outcome
        }
        defer { Glibc.close(socket.descriptor) }
        // Opened before the DHCPINFORM goes, so no answer comes before it listens.
        let watcher = InformPacketSocket.open(interface: interface)
        defer { if let watcher { Glibc.close(watcher.descriptor) } }
        let transaction = UInt32.random(in: 1...UInt32.max)
        let message = DHCPMessage.inform(transaction: transaction, clientAddress: clientAddress,
                                         hardwareAddress: hardwareAddress)
        let destination = server ?? [255, 255, 255, 255]
        let retransmitAt = min(deadline, start + DHCPInformReport.bound / 2)
        var buffer = [UInt8](repeating: 0, count: 1500)
        var refused = false
        for attempt in 0..<2 {
            if let error = socket.send(message, to: destination) {
                return Outcome(state: .failed, error: "send: \(error)")
            }
            let until = attempt == 0 ? retransmitAt : deadline
            while let datagram = socket.receive(into: &buffer, deadline: until, watcher: watcher, client: clientAddress) {
                switch DHCPMessage.informAnswer(datagram, transaction: transaction) {
                case .success(let answer):
                    return Outcome(state: .answered, answer: answer, durationMs: start.duration(to: .now).inMilliseconds)
                case .failure(.refused):
                    refused = true
                case .failure:
                    continue
                }
            }
            if ContinuousClock.now >= deadline { break }
        }
        let waited = start.duration(to: .now).inMilliseconds
        return Outcome(state: .noAnswer, error: refused ? "the server answered DHCPNAK" : "no DHCPACK within \(Int(waited)) ms",
                       durationMs: waited)
    }
}

/// A UDP socket on port 68 of one interface's address; closed by its owner.
struct InformSocket {
    let descriptor: Int32

    static func open(interface: String, address: [UInt8]) -> Result<InformSocket, DHCPInformExchange.Outcome> {
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
        let size = socklen_t(MemoryLayout<Int32>.size)
        // A DHCP client of the machine may hold port 68 too (dhcpcd on this address, dhclient on
        // any): sharing it is what SO_REUSEADDR is for, and the socket bound to the address and
        // the device is the one the kernel hands the answer to.
        guard setsockopt(descriptor, SOL_SOCKET, SO_REUSEADDR, &on, size) == 0 else { return fail("SO_REUSEADDR") }
        guard setsockopt(descriptor, SOL_SOCKET, SO_BROADCAST, &on, size) == 0 else { return fail("SO_BROADCAST") }
        let bound = interface.withCString { name in
            setsockopt(descriptor, SOL_SOCKET, SO_BINDTODEVICE, name, socklen_t(strlen(name) + 1))
        }
        guard bound == 0 else { return fail("SO_BINDTODEVICE \(interface)") }
        var local = socketAddress(address, port: DHCPMessage.clientPort)
        let done = withUnsafePointer(to: &local) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                Glibc.bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard done == 0 else { return fail("bind \(IPAddressFormat.text(address[...])):\(DHCPMessage.clientPort)") }
        return .success(InformSocket(descriptor: descriptor))
    }

    static func socketAddress(_ address: [UInt8], port: UInt16) -> sockaddr_in {
        var result = sockaddr_in()
        result.sin_family = sa_family_t(AF_INET)
        result.sin_port = port.bigEndian
        withUnsafeMutableBytes(of: &result.sin_addr) { $0.copyBytes(from: address) }
        return result
    }

    /// Sends the whole datagram; nil when sent, else why not.
    func send(_ bytes: [UInt8], to server: [UInt8]) -> String? {
        var destination = Self.socketAddress(server, port: DHCPMessage.serverPort)
        let sent = bytes.withUnsafeBytes { raw in
            withUnsafePointer(to: &destination) { pointer in
                pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    Glibc.sendto(descriptor, raw.baseAddress, raw.count, Int32(MSG_NOSIGNAL), $0,
                                 socklen_t(MemoryLayout<sockaddr_in>.size))
                }
            }
        }
        return sent == bytes.count ? nil : Self.errorText()
    }

    /// The next DHCP message to port 68, from this socket or the packet socket `watcher`, or
    /// nil once the deadline has passed.
    func receive(into buffer: inout [UInt8], deadline: ContinuousClock.Instant, watcher: InformPacketSocket?,
                 client: [UInt8]) -> [UInt8]? {
        while true {
            let left = ContinuousClock.now.duration(to: deadline)
            guard left > .zero else { return nil }
            var entries = [pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)]
            if let watcher { entries.append(pollfd(fd: watcher.descriptor, events: Int16(POLLIN), revents: 0)) }
            let ready = poll(&entries, nfds_t(entries.count), left.pollMilliseconds)
            if ready < 0 && errno != EINTR { return nil }
            guard ready > 0 else { continue }
            if entries.count > 1, entries[1].revents != 0, let watcher,
               let message = watcher.read(into: &buffer, client: client) {
                return message
            }
            guard entries[0].revents != 0 else { continue }
            let count = buffer.withUnsafeMutableBytes { Glibc.recv(descriptor, $0.baseAddress, $0.count, 0) }
            if count >= 0 { return Array(buffer[0..<count]) }
            if errno == EINTR || errno == EAGAIN { continue }
            return nil
        }
    }

    static func errorText() -> String {
        String(cString: strerror(errno))
    }
}
