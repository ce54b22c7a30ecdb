import Foundation
import Testing

/// How a probe's connection starts and ends, read from the packets on the namespace's loopback
/// (Tests/support/lo_capture.py). A connection closed the usual way takes ten packets for plain
/// HTTP: SYN, SYN-ACK, the handshake's ACK, the request, its ACK, the answer, our ACK of it,
/// the server's FIN, ours, and its ACK. netprobe lets the request (or ClientHello) carry the
/// handshake's ACK and ends with one RST once the answer is whole; over TLS it sends no
/// close_notify after the server has closed, which only drew the server's RST. What is checked
/// is the order of packets, which no timing changes: a late ACK of ours may come in between.
@Suite(.timeLimit(.minutes(2)))
struct WireMannersTests {
    /// One connection's packets, in order: from the client or from the server.
    struct Packet {
        var fromClient: Bool
        var flags: String
        var payload: Int
    }

    /// Runs `netprobe --json --config` on `set` under the capture; the packets per connection.
    static func capture(_ set: ProbeSet, in sandbox: Sandbox, port: Int, servers: [String],
                        extra: [String] = []) throws -> (Run, [Int: [Packet]]) {
        let packets = sandbox.path("packets")
        let script = Sandbox.supportDirectory.appendingPathComponent("lo_capture.py").path
        let run = try sandbox.run(["--json", "--config", try sandbox.write(set)] + extra, servers: servers,
                                  wrapper: ["python3", script, packets, String(port), "--"])
        var connections: [Int: [Packet]] = [:]
        let text = (try? String(contentsOfFile: packets, encoding: .utf8)) ?? ""
        for line in text.split(separator: "\n") {
            let fields = line.split(separator: " ")
            guard fields.count == 4, let client = Int(fields[0]), let payload = Int(fields[3]) else { continue }
            connections[client, default: []].append(Packet(fromClient: fields[1] == ">", flags: String(fields[2]), payload: payload))
        }
        return (run, connections)
    }

    /// The manners every probe connection keeps, whatever it carried.
    static func expectManners(_ connections: [Int: [Packet]], count: Int, _ run: Run) {
        #expect(connections.count == count, "\(connections.keys.sorted()) \(run)")
        for (port, packets) in connections.sorted(by: { $0.key < $1.key }) {
            let client = packets.filter(\.fromClient)
            let trace = packets.map { "\($0.fromClient ? ">" : "<")\($0.flags):\($0.payload)" }.joined(separator: " ")
            #expect(client.first?.flags == "S", "\(port): \(trace)")
            // The first packet after the SYN carries data, and with it the handshake's ACK.
            #expect(client.dropFirst().first.map { $0.payload > 0 } == true, "\(port): \(trace)")
            #expect(!client.contains { $0.flags.contains("F") }, "no FIN from us: \(port): \(trace)")
            #expect(client.last?.flags.contains("R") == true, "one RST ends it: \(port): \(trace)")
            // Nothing of ours after the server closed: no close_notify, so no RST from it either.
            if let fin = packets.firstIndex(where: { !$0.fromClient && $0.flags.contains("F") }) {
                #expect(!packets[fin...].contains { $0.fromClient && $0.payload > 0 }, "\(port): \(trace)")
            }
            #expect(!packets.contains { !$0.fromClient && $0.flags.contains("R") }, "\(port): \(trace)")
        }
    }

    @Test func plainProbesSendTheHandshakeACKWithTheRequestAndEndWithOneReset() throws {
        let sandbox = try Sandbox()
        var set = ProbeSet(quorum: 2)
        set.add("one", expecting: .google)
        set.add("two", expecting: .google)
        let (run, connections) = try Self.capture(set, in: sandbox, port: ProbeSet.port, servers: [ProbeSet.httpServer])
        #expect(run.status == 0, "\(run)")
        #expect(try run.report().verdict == "online", "\(run)")
        Self.expectManners(connections, count: 2, run)
    }

    @Test func tlsProbesCloseWithoutCloseNotify() throws {
        let sandbox = try Sandbox()
        let tls = try TLSTests.makeCertificate(in: sandbox)
        var set = ProbeSet(quorum: 2)
        set.add("one", url: TLSTests.httpsURL, expect: ["status": [204]])
        set.add("two", url: TLSTests.httpsURL, expect: ["status": [204]])
        let (run, connections) = try Self.capture(set, in: sandbox, port: ProbeSet.tlsPort,
                                                  servers: TLSTests.servers(tls), extra: ["--ca-bundle", tls.certificate])
        #expect(run.status == 0, "\(run)")
        #expect(try run.report().verdict == "online", "\(run)")
        Self.expectManners(connections, count: 2, run)
    }
}
