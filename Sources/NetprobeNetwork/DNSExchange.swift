import Glibc
import Synchronization
import NetprobeWire
import NetprobeVerdict
import NetprobeSystem

/// Asks one DNS server a few questions over UDP (TCP when an answer is truncated), within a
/// deadline: the small resolver netprobe uses for the link's own resolvers, which the
/// system's resolver does not ask. The socket is connected to the server, so the kernel
/// drops datagrams from any other address or port; each question has a random ID (unique
/// among the questions), the
/// source port is the kernel's random ephemeral one, and an answer counts only when its ID
/// and question match (`DNSMessage.answer`). Bound to `interface` (SO_BINDTODEVICE) when given.
public enum DNSExchange {
    public struct Question: Sendable, Equatable {
        public var name: String
        public var type: DNSRecordType

        public init(name: String, type: DNSRecordType) {
            self.name = name
            self.type = type
        }
    }

    /// Why a question got no usable answer.
    public enum Failure: Error, Sendable, Equatable, CustomStringConvertible {
        /// No answer before the deadline.
        case timeout
        /// The server's port is closed (ICMP port unreachable, or TCP refused).
        case refused
        /// The socket could not be made, bound or connected (errno text).
        case socket(String)
        /// An answer came, and was not usable.
        case answer(DNSError)

        public var description: String {
            switch self {
            case .timeout: "no answer"
            case .refused: "refused (port unreachable)"
            case .socket(let text): text
            case .answer(let error): error.description
            }
        }
    }

    public typealias Outcome = Result<DNSAnswer, Failure>

    /// Running totals, process-wide, of the DNS messages netprobe exchanged itself (UDP
    /// payloads; over TCP with their length prefixes): a check reads them before and after.
    static let sentBytes = Atomic<Int>(0)
    static let receivedBytes = Atomic<Int>(0)

    /// The running totals as wire figures (only the DNS ones set).
    public static var wireBytes: WireBytes {
        WireBytes(dnsSent: sentBytes.load(ordering: .relaxed), dnsReceived: receivedBytes.load(ordering: .relaxed))
    }

    /// When unanswered questions are sent once more: one lost datagram (on Wi-Fi, say) must
    /// not be a failure, and a resolver answers a first question well within this.
    public static let retransmitAfter: Duration = .milliseconds(250)

    /// One outcome per question, in order. Each question has its own ID (no two alike) and is
    /// sent again once, after `retransmitAfter`, while unanswered. A truncated answer is asked
    /// again over TCP once the UDP answers are in, and kept (with what it holds) if TCP fails;
    /// the answers already received are never lost to a TCP retry. Nothing waits past `deadline`.
    public static func ask(_ questions: [Question], server: String, port: UInt16 = 53, interface: String?,
                           deadline: ContinuousClock.Instant, retransmitAfter: Duration = retransmitAfter) -> [Outcome] {
        var outcomes = [Outcome?](repeating: nil, count: questions.count)
        var queries: [(id: UInt16, bytes: [UInt8])?] = []
        for (index, (question, id)) in zip(questions, uniqueIDs(questions.count)).enumerated() {
            do {
                queries.append((id, try DNSMessage.query(id: id, name: question.name, type: question.type)))
            } catch {
                queries.append(nil)
                outcomes[index] = .failure(.answer(error))
            }
        }
        let socket: DNSSocket
        do {
            socket = try DNSSocket(server: server, port: port, stream: false, interface: interface, deadline: deadline)
        } catch {
            return outcomes.map { $0 ?? .failure(error) }
        }
        defer { socket.close() }
        // Truncated UDP answers, asked again over TCP once the rest are in.
        var truncated: [Int: DNSAnswer] = [:]
        func open() -> [Int] { outcomes.indices.filter { outcomes[$0] == nil && truncated[$0] == nil } }

        func sendOpen() {
            for index in open() {
                guard let query = queries[index], let failure = socket.send(query.bytes, deadline: deadline) else { continue }
                // A closed port (the ICMP error of an earlier datagram) is closed for every question.
                if failure == .refused {
                    for other in open() { outcomes[other] = .failure(.refused) }
                    return
                }
                outcomes[index] = .failure(failure)
            }
        }
        sendOpen()
        var retransmitAt: ContinuousClock.Instant? = ContinuousClock.now + retransmitAfter
        var buffer = [UInt8](repeating: 0, count: 4096)
        while !open().isEmpty {
            let wake = retransmitAt.map { min($0, deadline) } ?? deadline
            guard let received = socket.receive(into: &buffer, deadline: wake) else {
                if retransmitAt != nil && ContinuousClock.now < deadline {
                    retransmitAt = nil
                    sendOpen()
                    continue
                }
                break
            }
            let message: [UInt8]
            switch received {
            case .failure(let failure):
                for index in open() { outcomes[index] = .failure(failure) }
                continue
            case .success(let bytes):
                message = bytes
            }
            // The question this answers: by ID, then the question itself is checked by the parser.
            guard message.count >= 2 else { continue }
            let id = UInt16(message[0]) << 8 | UInt16(message[1])
            guard let index = open().first(where: { queries[$0]?.id == id }) else { continue }
            let question = questions[index]
            do {
                let answer = try DNSMessage.answer(message, id: id, name: question.name, type: question.type)
                if answer.truncated {
                    truncated[index] = answer
                } else {
                    outcomes[index] = .success(answer)
                }
            } catch .mismatch {
                continue  // not our question after all: keep waiting for the real answer
            } catch {
                outcomes[index] = .failure(.answer(error))
            }
        }
        for (index, partial) in truncated.sorted(by: { $0.key < $1.key }) {
            let overTCP = overTCP(queries[index]!.bytes, id: queries[index]!.id, question: questions[index], server: server,
                                  port: port, interface: interface, deadline: deadline)
            // TCP dropped or refused: what the truncated answer held is still an answer.
            if case .failure = overTCP, !partial.addresses.isEmpty {
                outcomes[index] = .success(partial)
            } else {
                outcomes[index] = overTCP
            }
        }
        return outcomes.map { $0 ?? .failure(.timeout) }
    }

    /// `count` random query IDs, no two alike: an answer is matched to its question by ID, and
    /// two questions drawing the same one could take each other's answer. At most 65,536.
    static func uniqueIDs(_ count: Int) -> [UInt16] {
        var ids: [UInt16] = []
        var taken: Set<UInt16> = []
        while ids.count < min(count, 1 << 16) {
            let id = UInt16.random(in: 0...UInt16.max)
            if taken.insert(id).inserted { ids.append(id) }
        }
        return ids
    }

    /// The same question over TCP (RFC 7766), for an answer too large for UDP.
    static func overTCP(_ query: [UInt8], id: UInt16, question: Question, server: String, port: UInt16,
                        interface: String?, deadline: ContinuousClock.Instant) -> Outcome {
        let socket: DNSSocket
        do {
            socket = try DNSSocket(server: server, port: port, stream: true, interface: interface, deadline: deadline)
        } catch {
            return .failure(error)
        }
        defer { socket.close() }
        let framed = [UInt8(query.count >> 8), UInt8(query.count & 0xFF)] + query
        if let failure = socket.send(framed, deadline: deadline) { return .failure(failure) }
        guard case .success(let prefix) = socket.read(exactly: 2, deadline: deadline) else { return .failure(.timeout) }
        let length = Int(prefix[0]) << 8 | Int(prefix[1])
        switch socket.read(exactly: length, deadline: deadline) {
        case .success(let message):
            do {
                return .success(try DNSMessage.answer(message, id: id, name: question.name, type: question.type))
            } catch {
                return .failure(.answer(error))
            }
        case .failure(let failure):
            return .failure(failure)
        }
    }
}

/// One connected UDP or TCP socket to a DNS server; closed by its owner.
struct DNSSocket {
    let descriptor: Int32

    init(server: String, port: UInt16, stream: Bool, interface: String?,
         deadline: ContinuousClock.Instant) throws(DNSExchange.Failure) {
        guard let (bytes, scope) = Self.address(server, interface: interface) else {
            throw .socket("not a usable IP address: \(server)")
        }
        let family = bytes.count == 4 ? AF_INET : AF_INET6
        var storage = sockaddr_storage()
        // sockaddr_in and sockaddr_in6 both start with the family and the port; the address
        // follows at its own offset.
        let length = withUnsafeMutableBytes(of: &storage) { raw -> socklen_t in
            raw.storeBytes(of: sa_family_t(family), toByteOffset: 0, as: sa_family_t.self)
            raw.storeBytes(of: port.bigEndian, toByteOffset: MemoryLayout<sockaddr_in>.offset(of: \.sin_port)!, as: UInt16.self)
            let offset = family == AF_INET ? MemoryLayout<sockaddr_in>.offset(of: \.sin_addr)!
                                           : MemoryLayout<sockaddr_in6>.offset(of: \.sin6_addr)!
            raw.baseAddress!.advanced(by: offset).copyMemory(from: bytes, byteCount: bytes.count)
            if family == AF_INET6 {
                raw.storeBytes(of: scope, toByteOffset: MemoryLayout<sockaddr_in6>.offset(of: \.sin6_scope_id)!, as: UInt32.self)
            }
            return socklen_t(family == AF_INET ? MemoryLayout<sockaddr_in>.size : MemoryLayout<sockaddr_in6>.size)
        }
        let type = Int32(stream ? SOCK_STREAM.rawValue : SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue)
            | Int32(SOCK_NONBLOCK.rawValue)
        descriptor = Glibc.socket(family, type, 0)
        guard descriptor >= 0 else { throw .socket("socket: \(Self.errorText())") }
        if let interface {
            let bound = interface.withCString { name in
                setsockopt(descriptor, SOL_SOCKET, SO_BINDTODEVICE, name, socklen_t(strlen(name) + 1))
            }
            guard bound == 0 else {
                let text = Self.errorText()
                Glibc.close(descriptor)
                throw .socket("SO_BINDTODEVICE \(interface): \(text)")
            }
        }
        let connected = withUnsafePointer(to: &storage) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.connect(descriptor, $0, length) }
        }
        if connected != 0 && errno != EINPROGRESS {
            let failure: DNSExchange.Failure = errno == ECONNREFUSED ? .refused : .socket("connect \(server): \(Self.errorText())")
            Glibc.close(descriptor)
            throw failure
        }
        if stream && connected != 0 {
            // A TCP connection in progress: writable when it is made (or refused).
            guard wait(for: Int16(POLLOUT), deadline: deadline) else {
                Glibc.close(descriptor)
                throw .timeout
            }
            var error: Int32 = 0
            var size = socklen_t(MemoryLayout<Int32>.size)
            getsockopt(descriptor, SOL_SOCKET, SO_ERROR, &error, &size)
            if error != 0 {
                Glibc.close(descriptor)
                throw error == ECONNREFUSED ? .refused : .socket("connect \(server): \(String(cString: strerror(error)))")
            }
        }
    }

    /// The server's address bytes and IPv6 scope (interface index; 0 for none). A zone
    /// (`fe80::53%eth0`, or resolved's `%IFINDEX`) is taken only on a link-local address and
    /// only as an interface name or index that exists; with the socket bound to `interface`,
    /// only that interface (the kernel refuses a scope other than the bound device's).
    static func address(_ server: String, interface: String?) -> (bytes: [UInt8], scope: UInt32)? {
        guard let percent = server.firstIndex(of: "%") else {
            return IPAddressText.address(server, octets: .strict).map { ($0, 0) }
        }
        let zone = server[server.index(after: percent)...]
        guard let bytes = IPAddressText.address(String(server[..<percent]), octets: .strict), bytes.count == 16,
              bytes[0] == 0xFE, bytes[1] & 0xC0 == 0x80, ResolverAddress.isInterfaceName(zone) else { return nil }
        let index = if_nametoindex(String(zone))
        let scope = index != 0 ? index : UInt32(zone) ?? 0
        guard scope != 0 else { return nil }
        if let interface, if_nametoindex(interface) != scope { return nil }
        return (bytes, scope)
    }

    func close() {
        Glibc.close(descriptor)
    }

    /// Sends all of `bytes`; nil when sent. A full socket buffer (EAGAIN) is waited out on
    /// poll, until the deadline at most.
    func send(_ bytes: [UInt8], deadline: ContinuousClock.Instant) -> DNSExchange.Failure? {
        var offset = 0
        while offset < bytes.count {
            let sent = bytes[offset...].withUnsafeBytes { Glibc.send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if sent < 0 {
                if errno == EINTR { continue }
                if errno == EAGAIN || errno == EWOULDBLOCK {
                    guard wait(for: Int16(POLLOUT), deadline: deadline) else { return .timeout }
                    continue
                }
                return errno == ECONNREFUSED ? .refused : .socket("send: \(Self.errorText())")
            }
            offset += sent
            DNSExchange.sentBytes.add(sent, ordering: .relaxed)
        }
        return nil
    }

    /// The next datagram, or nil once the deadline has passed (one already queued then is
    /// still returned).
    func receive(into buffer: inout [UInt8], deadline: ContinuousClock.Instant) -> Result<[UInt8], DNSExchange.Failure>? {
        while wait(for: Int16(POLLIN), deadline: deadline) {
            let count = buffer.withUnsafeMutableBytes { Glibc.recv(descriptor, $0.baseAddress, $0.count, 0) }
            if count >= 0 {
                DNSExchange.receivedBytes.add(count, ordering: .relaxed)
                return .success(Array(buffer[0..<count]))
            }
            if errno == EINTR || errno == EAGAIN { continue }
            return .failure(errno == ECONNREFUSED ? .refused : .socket("recv: \(Self.errorText())"))
        }
        return nil
    }

    /// Exactly `count` bytes of a stream, or why not.
    func read(exactly count: Int, deadline: ContinuousClock.Instant) -> Result<[UInt8], DNSExchange.Failure> {
        var bytes = [UInt8](repeating: 0, count: count)
        var filled = 0
        while filled < count {
            guard wait(for: Int16(POLLIN), deadline: deadline) else { return .failure(.timeout) }
            let got = bytes[filled...].withUnsafeMutableBytes { Glibc.recv(descriptor, $0.baseAddress, $0.count, 0) }
            if got == 0 { return .failure(.answer(.truncatedMessage)) }
            if got < 0 {
                if errno == EINTR || errno == EAGAIN { continue }
                return .failure(errno == ECONNREFUSED ? .refused : .socket("recv: \(Self.errorText())"))
            }
            filled += got
            DNSExchange.receivedBytes.add(got, ordering: .relaxed)
        }
        return .success(bytes)
    }

    /// Waits for `events` until the deadline; false when it passed first. Looks once even
    /// when it has passed: what is already there is not thrown away.
    private func wait(for events: Int16, deadline: ContinuousClock.Instant) -> Bool {
        var looked = false
        while true {
            let left = ContinuousClock.now.duration(to: deadline)
            if left <= .zero && looked { return false }
            looked = true
            var entry = pollfd(fd: descriptor, events: events, revents: 0)
            let ready = poll(&entry, 1, left > .zero ? left.pollMilliseconds : 0)
            if ready > 0 { return true }
            if ready < 0 && errno != EINTR { return false }
        }
    }

    private static func errorText() -> String {
        String(cString: strerror(errno))
    }
}
