import Foundation
import Glibc
@testable import NetprobeSystem
import Testing

/// The socket table read through NETLINK_SOCK_DIAG, in a namespace of its own: what it lists
/// is exactly the connections the test made there.
@Suite("TCP socket table (sock_diag) in a network namespace")
struct TCPSocketTableTests {
    /// A connected pair on `address` (family `family`): the listener's accepted end and the client.
    static func connectedPair(family: Int32, address: String) throws -> (listener: Int32, client: Int32, server: Int32, port: Int) {
        func check(_ result: Int32, _ what: String) throws {
            if result < 0 { throw Command.Failure(command: [what], status: errno, output: String(cString: strerror(errno))) }
        }
        var storage = sockaddr_storage()
        var length: socklen_t
        if family == AF_INET {
            var sin = sockaddr_in()
            sin.sin_family = sa_family_t(AF_INET)
            inet_pton(AF_INET, address, &sin.sin_addr)
            withUnsafeBytes(of: sin) { bytes in withUnsafeMutableBytes(of: &storage) { $0.copyMemory(from: bytes) } }
            length = socklen_t(MemoryLayout<sockaddr_in>.size)
        } else {
            var sin6 = sockaddr_in6()
            sin6.sin6_family = sa_family_t(AF_INET6)
            inet_pton(AF_INET6, address, &sin6.sin6_addr)
            withUnsafeBytes(of: sin6) { bytes in withUnsafeMutableBytes(of: &storage) { $0.copyMemory(from: bytes) } }
            length = socklen_t(MemoryLayout<sockaddr_in6>.size)
        }
        let listener = socket(family, Int32(SOCK_STREAM.rawValue), 0)
        try check(listener, "socket")
        try check(withUnsafePointer(to: &storage) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(listener, $0, length) } }, "bind")
        try check(listen(listener, 4), "listen")
        var bound = sockaddr_storage()
        var boundLength = socklen_t(MemoryLayout<sockaddr_storage>.size)
        try check(withUnsafeMutablePointer(to: &bound) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(listener, $0, &boundLength) } },
                  "getsockname")
        let client = socket(family, Int32(SOCK_STREAM.rawValue), 0)
        try check(client, "socket")
        try check(withUnsafePointer(to: &bound) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(client, $0, boundLength) } },
                  "connect")
        let server = accept(listener, nil, nil)
        try check(server, "accept")
        // sin_port and sin6_port sit at the same offset, in network order.
        let port = withUnsafeBytes(of: bound) { Int($0[2]) << 8 | Int($0[3]) }
        return (listener, client, server, port)
    }

    @Test func itListsTheNamespacesConnectionsOfBothFamiliesAndNothingElse() async throws {
        let (empty, listed) = try await withNamespace { ns in
            try await ns.inside {
                let table = try TCPSocketTable()
                let empty = try table.sockets()
                let v4 = try Self.connectedPair(family: AF_INET, address: "127.0.0.1")
                let v6 = try Self.connectedPair(family: AF_INET6, address: "::1")
                defer { for fd in [v4.listener, v4.client, v4.server, v6.listener, v6.client, v6.server] { close(fd) } }
                var byte: UInt8 = 1
                _ = send(v4.client, &byte, 1, 0)
                return (empty, try table.sockets().map { ($0, $0.destinationPort == v4.port || $0.destinationPort == v6.port) })
            }
        }
        #expect(empty.isEmpty, "a fresh namespace has no TCP sockets: \(empty)")
        // Each pair is two sockets (the client's and the accepted one); listeners are not in these states.
        #expect(listed.count == 4, "\(listed.map(\.0))")
        #expect(listed.allSatisfy { $0.0.state == .established })
        #expect(Set(listed.map(\.0.cookie)).count == 4)
        let clients = listed.filter(\.1).map(\.0)
        #expect(Set(clients.map(\.destination)) == [[127, 0, 0, 1], [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1]])
        #expect(clients.allSatisfy { $0.timeoutsInARow == 0 && $0.sinceReceivedMs < 60_000 })
        // Loopback is the machine itself: it says nothing of the way out.
        #expect(listed.allSatisfy { $0.0.route == .local }, "\(listed.map(\.0.route))")
    }

    /// What waits for the reader (inet_diag's rqueue) and the window last advertised (tcp_info's
    /// rcv_wnd, Linux 6.2 on): a reader that reads nothing fills its queue until the window
    /// shuts; one that read what came has an empty queue and an open window.
    @Test func itReadsTheReceiveQueueAndTheWindow() async throws {
        let (full, readAll) = try await withNamespace { ns in
            try await ns.inside {
                let table = try TCPSocketTable()
                let stopped = try Self.connectedPair(family: AF_INET, address: "127.0.0.1")
                let reading = try Self.connectedPair(family: AF_INET, address: "127.0.0.1")
                defer { for fd in [stopped.listener, stopped.client, stopped.server, reading.listener, reading.client, reading.server] { close(fd) } }
                let chunk = [UInt8](repeating: 7, count: 65_536)
                func client(_ port: Int) throws -> TCPSocketInfo? { try table.sockets().first { $0.destinationPort == port } }
                // Sent until the server's own buffer is full, again until the table shows the window shut (a deadline, no sleep).
                let deadline = ContinuousClock.now + .seconds(5)
                var full = try client(stopped.port)
                while ContinuousClock.now < deadline, (full?.receiveWindow ?? 0) >= (full?.receiveMss ?? 0) {
                    while chunk.withUnsafeBytes({ send(stopped.server, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT)) }) > 0 {}
                    full = try client(stopped.port)
                }
                _ = chunk.withUnsafeBytes { send(reading.server, $0.baseAddress, 1_000, 0) }
                var buffer = [UInt8](repeating: 0, count: 1_000)
                var got = 0
                while got < 1_000 {
                    let n = buffer.withUnsafeMutableBytes { recv(reading.client, $0.baseAddress, 1_000 - got, 0) }
                    if n <= 0 { break }
                    got += n
                }
                return (full, try client(reading.port))
            }
        }
        let stopped = try #require(full), caughtUp = try #require(readAll)
        #expect(stopped.receiveQueue > 0 && stopped.bytesReceived >= UInt64(stopped.receiveQueue), "\(stopped)")
        #expect(stopped.receiveWindow.map { $0 < stopped.receiveMss } == true, "shut: \(stopped)")
        #expect(caughtUp.receiveQueue == 0 && caughtUp.bytesReceived == 1_000, "\(caughtUp)")
        #expect(caughtUp.receiveWindow.map { $0 >= caughtUp.receiveMss } == true, "open: \(caughtUp)")
    }

    /// Only what the kernel routes through a gateway, or out of a point-to-point link, is the
    /// way out; a neighbour on the link (the gateway's own address) and the machine are not.
    @Test func eachDestinationIsClassedByTheKernelsRoute() async throws {
        let answers = try await withNamespace { ns in
            try ns.ipBatch([
                "link set lo up", "link add d0 type veth peer name d0p", "link set d0p up", "link set d0 up",
                "addr add 198.51.100.10/24 dev d0", "addr add 2001:db8:1::10/64 dev d0 nodad",
                "route add default via 198.51.100.1 dev d0", "route add default via 2001:db8:1::1 dev d0",
                "tuntap add dev t0 mode tun", "link set t0 up", "addr add 10.9.0.2 peer 10.9.0.1 dev t0",
                "route add 192.0.2.0/24 dev t0",
            ])
            return try await ns.inside {
                let routes = DestinationRoutes()
                let asked: [[UInt8]] = [[203, 0, 113, 10], [198, 51, 100, 1], [198, 51, 100, 77], [198, 51, 100, 10], [127, 0, 0, 1],
                                        [192, 0, 2, 9], [32, 1, 13, 184, 0, 9] + Array(repeating: 0, count: 9) + [1],
                                        [32, 1, 13, 184, 0, 1] + Array(repeating: 0, count: 9) + [1], [10, 255, 0, 1]]
                let first = asked.map { routes.route(to: $0) }
                // Asked again: the same answers, from memory.
                #expect(asked.map { routes.route(to: $0) } == first)
                return first
            }
        }
        #expect(answers == [.viaGateway, .onLink, .onLink, .local, .local, .viaGateway, .viaGateway, .onLink, .viaGateway],
                "\(answers)")
    }
}
