import Foundation
import Testing

/// Loopback checks where the path is up but the endpoints fail: "offline" with the
/// dominant failure as the reason, within the deadline, and hostile answers bounded.
@Suite(.timeLimit(.minutes(2)))
struct FailureTests {
    static func runOffline(_ set: ProbeSet, reason: String, extra: [String] = []) throws -> (Run, JSONReport) {
        let sandbox = try Sandbox()
        let config = try sandbox.write(set)
        let run = try sandbox.run(["--json", "--config", config] + extra, servers: [ProbeSet.httpServer])
        #expect(run.status == 1, "\(run)")
        let report = try run.report()
        #expect(report.verdict == "offline", "\(run)")
        #expect(report.reason == reason, "\(run)")
        #expect(report.isNull("portal"), "\(run)")
        return (run, report)
    }

    @Test func allRefusedIsConnectFailed() throws {
        var set = ProbeSet()
        for endpoint in Endpoint.allCases.prefix(3) {
            set.add(endpoint.name, expecting: endpoint, url: ProbeSet.url(endpoint.path, port: ProbeSet.closedPort))
        }
        let (run, report) = try Self.runOffline(set, reason: "connect-failed")
        #expect(report.probes.count == 3)
        for probe in report.probes {
            #expect(probe.outcome == "failure", "\(probe)")
            #expect(probe.errorClass == "refused", "\(probe)")
            #expect(probe.status == nil, "\(probe)")
        }
        #expect((run.elapsed ?? 99) < 5, "took \(run.elapsed ?? -1) s")
    }

    /// Every probe black-holed: the answer comes at the --timeout deadline, not the
    /// probe set's 10 s, and not much after it (measured about 1.55 s; 1 s of slack
    /// for a loaded machine and the debug build's start-up).
    @Test func allStalledIsTimeoutWithinTheDeadline() throws {
        let deadline = 1.5
        let (run, report) = try Self.runOffline(.all("/stall"), reason: "timeout", extra: ["--timeout", "1.5"])
        for probe in report.probes {
            #expect(probe.outcome == "failure", "\(probe)")
            #expect(probe.errorClass == "timeout", "\(probe)")
        }
        let elapsed = try #require(run.elapsed, "\(run.stats)")
        #expect(elapsed < deadline + Slowdown.factor, "took \(elapsed) s with --timeout \(deadline)")
        #expect(elapsed > deadline - 0.5, "gave up early: \(elapsed) s with --timeout \(deadline)")
        #expect((report.durationMs ?? 0) < (deadline + 1) * 1000, "\(run)")
    }

    /// Headers sent, then the body never comes: also a timeout, also within the deadline.
    @Test func stalledBodyIsTimeoutWithinTheDeadline() throws {
        let (run, report) = try Self.runOffline(.all("/stall-body"), reason: "timeout", extra: ["--timeout", "1.5"])
        #expect(report.probes.allSatisfy { $0.errorClass == "timeout" }, "\(run)")
        #expect((run.elapsed ?? 99) < 3, "took \(run.elapsed ?? -1) s")
    }

    @Test func garbageEverywhereIsProtocolError() throws {
        let (_, report) = try Self.runOffline(.all("/garbage"), reason: "protocol-error")
        for probe in report.probes {
            #expect(probe.outcome == "failure", "\(probe)")
            #expect(probe.errorClass == "protocol", "\(probe)")
        }
    }

    @Test func resetEverywhereIsConnectFailed() throws {
        let (_, report) = try Self.runOffline(.all("/reset"), reason: "connect-failed")
        #expect(report.probes.allSatisfy { $0.errorClass == "reset" }, "\(report.probes)")
    }

    @Test func serverErrorsEverywhereAreHTTPErrors() throws {
        let (_, report) = try Self.runOffline(.all("/503"), reason: "http-error")
        for probe in report.probes {
            #expect(probe.outcome == "failure", "\(probe)")
            #expect(probe.errorClass == "http-5xx", "\(probe)")
            #expect(probe.status == 503, "\(probe)")
        }
    }

    /// A 200 with an empty body where 204 was expected is a broken middlebox, not a portal.
    @Test func emptyPagesWhere204ExpectedAreNotAPortal() throws {
        var set = ProbeSet()
        for name in ["one", "two", "three"] { set.add(name, expecting: .google, path: "/empty-200") }
        let (_, report) = try Self.runOffline(set, reason: "http-error")
        for probe in report.probes {
            #expect(probe.outcome == "failure", "\(probe)")
            #expect(probe.errorClass == "empty-body", "\(probe)")
            #expect(probe.status == 200, "\(probe)")
        }
    }

    /// The dominant failure names the reason: two refused against one 5xx.
    @Test func dominantFailureIsTheReason() throws {
        var set = ProbeSet()
        set.add("a", url: ProbeSet.url("/generate_204", port: ProbeSet.closedPort), expect: Endpoint.google.expect)
        set.add("b", url: ProbeSet.url("/generate_204", port: ProbeSet.closedPort), expect: Endpoint.google.expect)
        set.add("c", expecting: .google, path: "/503")
        _ = try Self.runOffline(set, reason: "connect-failed")
    }

    /// An endless body is read only up to max_body_bytes, and the command finishes.
    @Test func endlessBodyIsBounded() throws {
        let cap = 4096
        var set = ProbeSet(timeout: 20, probeTimeout: 15, quorum: 2)
        set.maxBodyBytes = cap
        for name in ["one", "two", "three"] {
            set.add(name, url: ProbeSet.url("/endless"), expect: ["status": [200], "body": ["prefix": "xxxx"]])
        }
        let sandbox = try Sandbox()
        let config = try sandbox.write(set)
        let run = try sandbox.run(["--json", "--config", config], servers: [ProbeSet.httpServer])
        #expect(run.status == 0, "\(run)")
        let report = try run.report()
        #expect(report.verdict == "online", "\(run)")
        let read = report.probes.filter { $0.outcome != "skipped" }
        #expect(read.count >= 2, "\(run)")
        for probe in read {
            #expect(probe.bodyTruncated == true, "\(probe)")
            let bytes = try #require(probe.bodyBytes, "\(probe)")
            #expect(bytes > 0 && bytes <= cap, "\(probe)")
        }
        #expect((run.elapsed ?? 99) < 5, "took \(run.elapsed ?? -1) s")
    }

    /// An endless body where 204 was expected: the page is judged on the capped bytes.
    @Test func endlessBodyWhere204ExpectedIsBoundedWrongContent() throws {
        var set = ProbeSet.all("/endless", timeout: 20)
        set.maxBodyBytes = 1024
        let sandbox = try Sandbox()
        let config = try sandbox.write(set)
        let run = try sandbox.run(["--json", "--config", config], servers: [ProbeSet.httpServer])
        let report = try run.report()
        #expect(run.status == 2, "\(run)")
        #expect(report.reason == "wrong-content", "\(run)")
        for probe in report.probes where probe.outcome != "skipped" {
            #expect(probe.bodyTruncated == true, "\(probe)")
            #expect((probe.bodyBytes ?? Int.max) <= 1024, "\(probe)")
        }
        #expect((run.elapsed ?? 99) < 5, "took \(run.elapsed ?? -1) s")
    }
}
