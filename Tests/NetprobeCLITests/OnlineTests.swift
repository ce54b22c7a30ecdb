import Foundation
import Testing

/// Loopback checks that end "online": a quorum of independent operators answered
/// exactly as expected, and nothing slow or dead held the answer back or broke it.
@Suite(.timeLimit(.minutes(2)))
struct OnlineTests {
    /// Checks what every online report must show, and returns the report.
    @discardableResult
    static func expectOnline(_ run: Run, validated: Int = 2) throws -> JSONReport {
        #expect(run.status == 0, "\(run)")
        let report = try run.report()
        #expect(report.verdict == "online", "\(run)")
        #expect(report.reason == "probes-validated", "\(run)")
        #expect(report.isNull("portal"), "\(run)")
        let successes = report.probes.filter { $0.outcome == "success" }
        #expect(successes.count >= validated, "\(run)")
        #expect((report.quorum?["success"] as? Int ?? 0) >= validated, "\(run)")
        for probe in successes {
            #expect(probe.errorClass == nil, "\(probe)")
            #expect(probe.remoteAddress == "127.0.0.1", "\(probe)")
            #expect(probe.timings?["total_ms"] is Double || probe.timings?["total_ms"] is Int, "\(probe)")
            #expect(probe.status == 200 || probe.status == 204, "\(probe)")
        }
        return report
    }

    @Test func threeOperatorsAnsweringRightIsOnline() throws {
        let sandbox = try Sandbox()
        let config = try sandbox.write(ProbeSet.healthy(3))
        let run = try sandbox.run(["--json", "--config", config], servers: [ProbeSet.httpServer])
        let report = try Self.expectOnline(run)
        #expect(report.quorum?["required"] as? Int == 2, "\(run)")
        #expect(report.probes.map(\.name) == ["apple", "google", "firefox"], "\(run)")
        // Once two operators have validated, the third cannot change the verdict: it is
        // either in already or cancelled as decided, never failed.
        for probe in report.probes where probe.outcome != "success" {
            #expect(probe.outcome == "skipped" && probe.skipReason == "decided", "\(probe)")
        }
        #expect(report.probe("google")?.status ?? 204 == 204)
    }

    /// Every endpoint type of the default set, with its real expectation (exact empty
    /// body, prefix, contains, exact text, the NetworkManager header).
    @Test func allFiveEndpointKindsValidate() throws {
        let sandbox = try Sandbox()
        let config = try sandbox.write(ProbeSet.healthy(5, quorum: 5))
        let run = try sandbox.run(["--json", "--config", config], servers: [ProbeSet.httpServer])
        let report = try Self.expectOnline(run, validated: 5)
        for probe in report.probes {
            #expect(probe.outcome == "success", "\(probe)")
            #expect(probe.bodyMatched != false, "\(probe)")
        }
        #expect(report.probe("google")?.status == 204)
        #expect(report.probe("gnome")?.bodyMatched == true)
    }

    /// A black-holed probe is cancelled as soon as the verdict is final: the command
    /// returns long before the stall (60 s) or the probe set's timeout (20 s).
    @Test func stalledProbeIsSkippedOnceDecided() throws {
        let sandbox = try Sandbox()
        var set = ProbeSet.healthy(3)
        set.timeout = 20
        set.probeTimeout = 15
        set.add("stalled", expecting: .google, path: "/stall")
        let config = try sandbox.write(set)
        let run = try sandbox.run(["--json", "--config", config], servers: [ProbeSet.httpServer])
        let report = try Self.expectOnline(run)
        let stalled = try #require(report.probe("stalled"), "\(run)")
        #expect(stalled.outcome == "skipped", "\(stalled)")
        #expect(stalled.skipReason == "decided", "\(stalled)")
        #expect((run.elapsed ?? 99) < 5, "took \(run.elapsed ?? -1) s")
        #expect((report.durationMs ?? 99_999) < 5_000, "\(run)")
    }

    /// One endpoint that is down must not turn "online" into anything else.
    @Test(arguments: [
        ("refused", ProbeSet.url("/generate_204", port: ProbeSet.closedPort), "refused"),
        ("server-error", ProbeSet.url("/503"), "http-5xx"),
        ("not-found", ProbeSet.url("/404"), "http-4xx"),
        ("reset", ProbeSet.url("/reset"), "reset"),
        ("stalled", ProbeSet.url("/stall"), "timeout"),
    ])
    func oneDeadEndpointKeepsOnline(name: String, url: String, errorClass: String) throws {
        let sandbox = try Sandbox()
        var set = ProbeSet.healthy(3)
        set.add(name, url: url, expect: Endpoint.google.expect)
        let config = try sandbox.write(set)
        let run = try sandbox.run(["--json", "--config", config], servers: [ProbeSet.httpServer])
        let report = try Self.expectOnline(run)
        let dead = try #require(report.probe(name), "\(run)")
        // Settled before the verdict was final (then classified), or cancelled as not needed.
        if dead.outcome == "skipped" {
            #expect(dead.skipReason == "decided", "\(dead)")
        } else {
            #expect(dead.outcome == "failure", "\(dead)")
            #expect(dead.errorClass == errorClass, "\(dead)")
        }
        #expect((run.elapsed ?? 99) < 5, "took \(run.elapsed ?? -1) s")
    }

    /// Two probes of one operator count once toward the quorum: one operator cannot make
    /// "online" alone, however many of its probes answer.
    @Test func oneOperatorCannotMakeTheQuorumAlone() throws {
        let sandbox = try Sandbox()
        var set = ProbeSet(quorum: 2)
        set.add("google-1", expecting: .google, operator: "google")
        set.add("google-2", expecting: .google, operator: "google")
        set.add("mozilla", expecting: .firefox, path: "/503")
        let config = try sandbox.write(set)
        let run = try sandbox.run(["--json", "--config", config], servers: [ProbeSet.httpServer])
        #expect(run.status == 1, "\(run)")
        let report = try run.report()
        #expect(report.verdict == "offline", "\(run)")
        #expect(report.reason == "quorum-not-met", "\(run)")
        #expect(report.quorum?["success"] as? Int == 1, "\(run)")
    }
}
