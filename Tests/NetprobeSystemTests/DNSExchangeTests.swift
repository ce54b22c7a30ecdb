import Foundation
import NetprobeWire
import NetprobeVerdict
import NetprobeOutput
import NetprobeReport
import NetprobeSystem
import NetprobeNetwork
import NetprobeCheck
import NetprobeWatch
import Testing

/// netprobe's own resolver against a real DNS server on loopback (Tests/support/dns_server.py)
/// that answers well or badly on purpose. Each case ends in addresses or a clear failure
/// within its deadline; only 127.0.0.1 is ever asked.
@Suite("DNSExchange against a test server", .serialized)
struct DNSExchangeTests {
    static let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("support/dns_server.py")

    /// Starts the server in `mode`, waits for its "listening PORT" line, runs `body`, ends it by PID.
    static func withServer<T>(_ mode: String, _ body: (UInt16) throws -> T) throws -> T {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        process.arguments = [script.path, mode]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        defer {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
        // The line arrives once both sockets are bound: read it (a blocking read, bounded by the
        // server itself printing or dying).
        let line = String(decoding: output.fileHandleForReading.availableData, as: UTF8.self)
        guard let port = line.split(separator: " ").last.flatMap({ UInt16($0.trimmingCharacters(in: .whitespacesAndNewlines)) }) else {
            throw CocoaError(.fileReadCorruptFile)
        }
        return try body(port)
    }

    static let questions = [DNSExchange.Question(name: "captive.apple.com", type: .a),
                            DNSExchange.Question(name: "www.google.com", type: .aaaa)]

    static func ask(_ port: UInt16, seconds: Double = 2) -> (outcomes: [DNSExchange.Outcome], elapsed: Double) {
        let start = ContinuousClock.now
        let outcomes = DNSExchange.ask(questions, server: "127.0.0.1", port: port, interface: nil,
                                       deadline: start + .milliseconds(Int64(seconds * 1000)))
        return (outcomes, (ContinuousClock.now - start).inSeconds)
    }

    @Test func answersComeBackForEveryQuestion() throws {
        let (outcomes, _) = try Self.withServer("answer") { Self.ask($0) }
        #expect(outcomes == [.success(DNSAnswer(truncated: false, addresses: ["203.0.113.10"])),
                             .success(DNSAnswer(truncated: false, addresses: ["2001:db8:2::10"]))])
    }

    @Test func aTruncatedAnswerIsAskedAgainOverTCP() throws {
        let (outcomes, _) = try Self.withServer("truncated") { Self.ask($0) }
        #expect(outcomes.map { try? $0.get().addresses } == [["203.0.113.10"], ["2001:db8:2::10"]])
    }

    @Test(arguments: [
        ("wrong-id", DNSExchange.Failure.timeout),
        ("wrong-question", .timeout),
        ("other-port", .timeout),
        ("silent", .timeout),
        ("loop", .answer(.badPointer)),
        ("forward", .answer(.badPointer)),
        ("huge-count", .answer(.truncatedMessage)),
        ("short", .answer(.truncatedMessage)),
        ("servfail", .answer(.rcode(2))),
        ("nxdomain", .answer(.rcode(3))),
    ] as [(String, DNSExchange.Failure)])
    func hostileServersGiveAClearFailureWithinTheDeadline(_ mode: String, _ expected: DNSExchange.Failure) throws {
        let (outcomes, elapsed) = try Self.withServer(mode) { Self.ask($0, seconds: 0.5) }
        #expect(outcomes == [.failure(expected), .failure(expected)])
        #expect(elapsed < 0.5 + 0.5)
    }

    /// The first datagram of each question is lost: the retransmit after 250 ms is answered.
    @Test func aLostDatagramIsSentAgain() throws {
        let (outcomes, _) = try Self.withServer("drop-first") { Self.ask($0, seconds: 2) }
        #expect(outcomes.map { try? $0.get().addresses } == [["203.0.113.10"], ["2001:db8:2::10"]])
    }

    /// One answer truncated and its TCP retry never answered: the other answer is kept.
    @Test func aDroppedTCPRetryCostsOnlyItsOwnQuestion() throws {
        let (outcomes, elapsed) = try Self.withServer("truncated-first-tcp-silent") { Self.ask($0, seconds: 1) }
        #expect(outcomes == [.failure(.timeout), .success(DNSAnswer(truncated: false, addresses: ["2001:db8:2::10"]))])
        #expect(elapsed < 1 + 0.5)
    }

    @Test func garbageIsNeverAnAnswer() throws {
        let (outcomes, _) = try Self.withServer("garbage") { Self.ask($0, seconds: 0.5) }
        #expect(outcomes.allSatisfy { if case .failure = $0 { true } else { false } })
    }

    @Test func aClosedPortIsRefusedAtOnce() throws {
        // A port nothing listens on: bind one, note it, close it.
        let socket = Glibc.socket(AF_INET, Int32(SOCK_DGRAM.rawValue), 0)
        var address = sockaddr_in(sin_family: sa_family_t(AF_INET), sin_port: 0, sin_addr: in_addr(s_addr: UInt32(0x7F00_0001).bigEndian),
                                  sin_zero: (0, 0, 0, 0, 0, 0, 0, 0))
        var size = socklen_t(MemoryLayout<sockaddr_in>.size)
        withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                _ = bind(socket, $0, size)
                _ = getsockname(socket, $0, &size)
            }
        }
        close(socket)
        let (outcomes, elapsed) = Self.ask(UInt16(bigEndian: address.sin_port), seconds: 2)
        #expect(outcomes == [.failure(.refused), .failure(.refused)])
        #expect(elapsed < 1)
    }
}
