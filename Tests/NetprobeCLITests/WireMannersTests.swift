import Foundation
import Testing

/// What a probe's connection costs in packets, counted on the namespace's loopback (every
/// packet both ways is sent on lo once). A connection closed the usual way takes ten packets
/// for plain HTTP: SYN, SYN-ACK, the handshake's ACK, the request, its ACK, the answer, our
/// ACK of it, the server's FIN, ours, and its ACK. netprobe lets the request carry the
/// handshake's ACK and ends with one RST once the answer is whole; over TLS it also sends no
/// close_notify, which only drew the server's RST. The bounds leave one packet per connection
/// for an ACK a loaded machine sends late; the usual close is still above them.
@Suite(.timeLimit(.minutes(2)))
struct WireMannersTests {
    @Test func plainProbesTakeSevenPacketsAConnection() throws {
        let sandbox = try Sandbox()
        var set = ProbeSet(quorum: 2)
        set.add("one", expecting: .google)
        set.add("two", expecting: .google)
        let run = try sandbox.run(["--json", "--config", try sandbox.write(set)], servers: [ProbeSet.httpServer])
        #expect(run.status == 0, "\(run)")
        #expect(try run.report().verdict == "online", "\(run)")
        let packets = try #require(run.loopbackPacketsSent, "\(run.stats)")
        // Seven each (SYN, SYN-ACK, request, its ACK, answer, FIN, RST); the usual close: 20.
        #expect(packets >= 2 * 6 && packets <= 2 * 8, "lo packets: \(packets)")
    }

    @Test func tlsProbesCloseWithoutCloseNotify() throws {
        let sandbox = try Sandbox()
        let tls = try TLSTests.makeCertificate(in: sandbox)
        var set = ProbeSet(quorum: 2)
        set.add("one", url: TLSTests.httpsURL, expect: ["status": [204]])
        set.add("two", url: TLSTests.httpsURL, expect: ["status": [204]])
        let run = try sandbox.run(["--json", "--config", try sandbox.write(set), "--ca-bundle", tls.certificate],
                                  servers: TLSTests.servers(tls))
        #expect(run.status == 0, "\(run)")
        #expect(try run.report().verdict == "online", "\(run)")
        let packets = try #require(run.loopbackPacketsSent, "\(run.stats)")
        // Eleven each against this server; with the handshake's ACK, our close_notify and the
        // server's RST to it: 28.
        #expect(packets >= 2 * 9 && packets <= 2 * 12, "lo packets: \(packets)")
    }
}
