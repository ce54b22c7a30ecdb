import Foundation
import CLibc
import Synchronization
@testable import NetprobeWire
@testable import NetprobeLinkState
@testable import NetprobeNetwork
@testable import NetprobeCheck
import Testing

/// The DHCPINFORM's sockets on a real link: two namespaces joined by a veth pair, the client's
/// c0 (198.51.100.2) and the LAN's s0, where the lease's server (198.51.100.1) and a neighbour
/// (198.51.100.9) live, and lab/servers/dhcp_rogue.py answers every DHCPINFORM it hears with
/// what a test scripts. The exchange runs on a thread of the test moved into the client's
/// namespace; nothing leaves the two namespaces.
@Suite(.serialized) struct DHCPInformSocketTests {
    static let rogueScript = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../../lab/servers/dhcp_rogue.py").standardized.path
    static let uri = "https://capport.example/api"
    static let real = "uri=\(uri),dns=198.51.100.1"

    final class LAN {
        private static let counter = Atomic<Int>(0)
        let client: String
        let lan: String
        private var children: [Child] = []

        init() throws {
            let number = Self.counter.add(1, ordering: .relaxed).newValue
            client = "np-inform-\(getpid())-\(number)-c"
            lan = "np-inform-\(getpid())-\(number)-l"
            for name in [client, lan] {
                _ = try? Tool.run(Tool.ip, ["netns", "del", name])  // left over by a crashed run with our pid
                try Tool.run(Tool.ip, ["netns", "add", name])
            }
            do {
                try Tool.run(Tool.ip, ["-n", client, "link", "add", "c0", "type", "veth", "peer", "name", "s0", "netns", lan])
                try Tool.run(Tool.ip, ["-n", client, "addr", "add", "198.51.100.2/24", "dev", "c0"])
                try Tool.run(Tool.ip, ["-n", client, "link", "set", "c0", "up"])
                try Tool.run(Tool.ip, ["-n", lan, "addr", "add", "198.51.100.1/24", "dev", "s0"])
                try Tool.run(Tool.ip, ["-n", lan, "addr", "add", "198.51.100.9/24", "dev", "s0"])
                try Tool.run(Tool.ip, ["-n", lan, "link", "set", "s0", "up"])
            } catch {
                close()
                throw error
            }
        }

        func close() {
            for child in children { child.stop() }
            for name in [client, lan] { _ = try? Tool.run(Tool.ip, ["netns", "del", name]) }
        }

        /// c0's Ethernet address, as six bytes.
        func clientHardware() throws -> [UInt8] {
            let text = try Tool.run(Tool.ip, ["-n", client, "-br", "link", "show", "c0"])
            let word = try #require(text.split(separator: " ", omittingEmptySubsequences: true).first { $0.filter { $0 == ":" }.count == 5 })
            return try #require(DHCPInformFallback.hardwareBytes(String(word)))
        }

        /// A child in one of the namespaces that prints "ready" once it listens; returned then.
        func start(in namespace: String, _ arguments: [String]) throws -> Child {
            let child = try Child(Tool.ip, ["netns", "exec", namespace] + arguments)
            children.append(child)
            guard child.waitForStdout(timeout: 10, { $0.contains("ready") }) else {
                throw Tool.Failure(description: "\(arguments) did not start: \(child.stderr)")
            }
            return child
        }

        /// The rogue (and the scripted server) on s0.
        func responder(_ answers: [String]) throws -> Child {
            try start(in: lan, [Tool.python, DHCPInformSocketTests.rogueScript, "--interface", "s0", "--server", "198.51.100.1"]
                      + answers.flatMap { ["--answer", $0] })
        }

        /// A socket bound as systemd-networkd and dhcpcd bind theirs while a lease runs: the
        /// leased address, port 68, the device, SO_REUSEADDR. Prints each datagram it gets.
        func dhcpClientSocket() throws -> Child {
            let script = """
                import socket
                s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
                s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
                s.setsockopt(socket.SOL_SOCKET, socket.SO_BINDTODEVICE, b"c0")
                s.bind(("198.51.100.2", 68))
                print("ready", flush=True)
                while True:
                    data, peer = s.recvfrom(2048)
                    print("got %s %s" % (peer[0], data[4:8].hex()), flush=True)
                """
            return try start(in: client, [Tool.python, "-c", script])
        }

        /// `body` on a thread of its own inside the client's namespace.
        func inClient<T: Sendable>(_ body: @escaping @Sendable () -> T) throws -> T {
            let descriptor = open("/var/run/netns/\(client)", O_RDONLY | O_CLOEXEC)
            guard descriptor >= 0 else { throw Tool.Failure(description: "open netns \(client): \(errno)") }
            defer { Glibc.close(descriptor) }
            let box = ResultBox<T>()
            let thread = Thread {
                guard np_enter_network_namespace(descriptor) == 0 else { box.finish(nil); return }
                box.finish(body())
            }
            thread.start()
            return try #require(box.wait(timeout: 30), "the thread could not enter \(client)")
        }
    }

    final class ResultBox<T: Sendable>: @unchecked Sendable {
        private let condition = NSCondition()
        private var value: T?
        private var done = false

        func finish(_ result: T?) {
            condition.lock()
            value = result
            done = true
            condition.broadcast()
            condition.unlock()
        }

        func wait(timeout: Double) -> T? {
            let deadline = Date().addingTimeInterval(timeout)
            condition.lock()
            defer { condition.unlock() }
            while !done { if !condition.wait(until: deadline) { break } }
            return value
        }
    }

    static func ask(_ lan: LAN, bound: Duration = .milliseconds(500)) throws -> DHCPInformExchange.Outcome {
        let hardware = try lan.clientHardware()
        return try lan.inClient {
            DHCPInformExchange.ask(interface: "c0", clientAddress: [198, 51, 100, 2], hardwareAddress: hardware,
                                   server: [198, 51, 100, 1], deadline: .now + bound)
        }
    }

    /// The machine's DHCP client keeps its socket while netprobe asks: a renewal ACK the server
    /// sends it during the window, and the server's answer to us, both reach the client's
    /// socket (the kernel prefers a socket bound to the address over our wildcard one), and
    /// netprobe still reads its answer, from the packet socket.
    @Test func theDHCPClientLosesNoDatagramWhileWeAsk() throws {
        let lan = try LAN()
        defer { lan.close() }
        let client = try lan.dhcpClientSocket()
        let server = try lan.responder(["xid=other", Self.real])
        let outcome = try Self.ask(lan)
        #expect(outcome.state == .answered && outcome.answer?.captivePortal == Self.uri, "\(outcome)")
        #expect(outcome.ignored == 1 && outcome.ignoredReason == "198.51.100.1: another transaction (xid)")
        #expect(server.waitForStdout(timeout: 5) { $0.contains { $0.hasPrefix("answered") } })
        let both = client.waitForStdout(timeout: 5) { $0.filter { $0.hasPrefix("got 198.51.100.1 ") }.count >= 2 }
        #expect(both, "the client's socket got \(client.lines)")
    }

    /// Every forged answer comes first, the server's last: only the server's is taken, each
    /// other one counted. A datagram to another port never reaches the packet socket, and one
    /// whose UDP checksum is wrong is not read.
    @Test func onlyTheLeasesServerIsBelieved() throws {
        let lan = try LAN()
        defer { lan.close() }
        let forged = [
            "from=198.51.100.9,id=198.51.100.9,uri=https://evil.example/own",   // a neighbour, as itself
            "from=198.51.100.9,uri=https://evil.example/forged-54",             // option 54 forged
            "xid=other,uri=https://evil.example/xid",                          // the server's address, another xid
            "chaddr=other,uri=https://evil.example/chaddr",                    // another client
            "ciaddr=other,uri=https://evil.example/ciaddr",
            "csum=bad,uri=https://evil.example/checksum",                      // damaged on the way
        ]
        _ = try lan.responder(forged + [Self.real, "uri=https://evil.example/late"])
        let outcome = try Self.ask(lan)
        #expect(outcome.state == .answered && outcome.answer?.captivePortal == Self.uri, "\(outcome)")
        #expect(outcome.answer?.nameServers == ["198.51.100.1"])
        #expect(outcome.ignored == 5, "\(outcome)")
    }

    /// A neighbour alone: nothing it says is taken; the report counts it.
    @Test func aRogueAloneGivesNoAnswer() throws {
        let lan = try LAN()
        defer { lan.close() }
        _ = try lan.responder(["from=198.51.100.9,uri=https://evil.example/forged-54,dns=198.51.100.9"])
        let outcome = try Self.ask(lan, bound: .milliseconds(300))
        #expect(outcome.state == .noAnswer && outcome.answer == nil, "\(outcome)")
        #expect(outcome.ignored >= 1)
        #expect(outcome.ignoredReason == "198.51.100.9: sent from an address other than the lease's server")
    }

    /// The packet socket's filter passes UDP to port 68 alone: a datagram to port 69 sent
    /// first is never queued on it.
    @Test func thePacketSocketSeesOnlyPort68() throws {
        let lan = try LAN()
        defer { lan.close() }
        let sender = """
            import socket, sys
            sys.stdin.readline()
            s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
            s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            s.bind(("198.51.100.1", 67))
            s.sendto(b"port 69", ("198.51.100.2", 69))
            s.sendto(b"port 68", ("198.51.100.2", 68))
            """
        let stdin = Pipe()
        let child = try Child(Tool.ip, ["netns", "exec", lan.lan, Tool.python, "-c", sender], stdin: stdin.fileHandleForReading)
        defer { child.stop() }
        let payloads: [String] = try lan.inClient {
            guard let socket = InformPacketSocket.open(interface: "c0") else { return [] }
            defer { Glibc.close(socket.descriptor) }
            stdin.fileHandleForWriting.write(Data("go\n".utf8))
            var seen: [String] = []
            var buffer = [UInt8](repeating: 0, count: 2048)
            let deadline = ContinuousClock.now + .seconds(3)
            while seen.count < 1, ContinuousClock.now < deadline {
                var entry = pollfd(fd: socket.descriptor, events: Int16(POLLIN), revents: 0)
                guard poll(&entry, 1, 100) > 0 else { continue }
                var ready: Int32 = 0
                let count = buffer.withUnsafeMutableBytes { raw in
                    np_packet_receive(socket.descriptor, raw.baseAddress?.assumingMemoryBound(to: UInt8.self), raw.count, &ready)
                }
                guard count > 28 else { continue }
                seen.append(String(decoding: buffer[28..<Int(count)], as: UTF8.self))
            }
            return seen
        }
        #expect(payloads == ["port 68"])
        #expect(child.waitForExit(timeout: 5) == 0)
    }
}
