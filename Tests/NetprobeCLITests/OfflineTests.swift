import Foundation
import Testing

/// The path gate, end to end: when the kernel's state already proves "offline",
/// netprobe answers at once, marks every probe skipped and sends nothing at all.
@Suite(.timeLimit(.minutes(2)))
struct OfflineTests {
    /// The issue's own scenario: a fresh namespace with only lo, the built-in probe set.
    @Test func loopbackOnlyIsOfflineWithNoDefaultRoute() throws {
        let sandbox = try Sandbox()
        let run = try sandbox.run(["--json"], network: .loopbackOnly)
        #expect(run.status == 1, "\(run)")
        let report = try run.report()
        #expect(report.schemaVersion == 1)
        #expect(report.verdict == "offline")
        #expect(report.reason == "no-default-route")
        #expect(report.isNull("portal"))
        // The built-in set: the eight probes of probes.json, none of them sent.
        #expect(report.probes.count == 8)
        for probe in report.probes {
            #expect(probe.outcome == "skipped", "\(probe)")
            #expect(probe.skipReason == "gate", "\(probe)")
            #expect(probe.errorClass == nil, "\(probe)")
            #expect(probe.status == nil, "\(probe)")
        }
        #expect(run.loopbackPacketsSent == 0, "lo sent packets: \(run.stats)")
        #expect(run.stderr.isEmpty, "\(run.stderr)")
    }

    @Test func textModeSaysOffline() throws {
        let sandbox = try Sandbox()
        let run = try sandbox.run([], network: .loopbackOnly)
        #expect(run.status == 1, "\(run)")
        let first = run.stdout.split(separator: "\n").first.map(String.init) ?? ""
        #expect(first.hasPrefix("offline"), "\(run.stdout)")
        #expect(first.contains("no-default-route"), "\(run.stdout)")
        #expect(run.stdout.contains("not sent"), "\(run.stdout)")
        #expect(run.loopbackPacketsSent == 0, "lo sent packets: \(run.stats)")
    }

    /// With a probe set pointing at a server that is really there on 127.0.0.1, "nothing
    /// sent" is checked twice: lo's packet counter, and the server's request log.
    @Test(arguments: [
        (Network.loopbackOnly, "no-default-route"),
        (Network.noRoute, "no-default-route"),
        (Network.noCarrier, "no-link"),
        (Network.noAddress, "no-address"),
    ])
    func gateAnswersAtOnceAndSendsNothing(network: Network, reason: String) throws {
        let sandbox = try Sandbox()
        let config = try sandbox.write(ProbeSet.healthy(3))
        let run = try sandbox.run(["--json", "--config", config], network: network, servers: [ProbeSet.httpServer])
        #expect(run.status == 1, "\(run)")
        let report = try run.report()
        #expect(report.verdict == "offline", "\(run)")
        #expect(report.reason == reason, "\(run)")
        #expect(report.probes.map(\.name) == ["apple", "google", "firefox"])
        #expect(report.probes.allSatisfy { $0.outcome == "skipped" && $0.skipReason == "gate" }, "\(run)")
        #expect(run.loopbackPacketsSent == 0, "lo sent packets: \(run.stats)")
        #expect(!sandbox.serverLog().contains("GET") && !sandbox.serverLog().contains("->"),
                "the server saw requests: \(sandbox.serverLog())")
        // "At once": no probe, no waiting; generous bound for a loaded debug build.
        #expect((run.elapsed ?? 99) < 3, "took \(run.elapsed ?? -1) s")
    }

    /// The path facts behind the verdict are in the report too.
    @Test func reportShowsTheLinkWithoutCarrier() throws {
        let sandbox = try Sandbox()
        let run = try sandbox.run(["--json"], network: .noCarrier)
        #expect(run.status == 1, "\(run)")
        let report = try run.report()
        #expect(report.reason == "no-link")
        let interfaces = report.root["interfaces"] as? [[String: Any]] ?? []
        let d0 = interfaces.first { $0["name"] as? String == "d0" }
        #expect(d0 != nil, "\(run.stdout)")
        #expect(JSONReport.bool(d0?["carrier"]) == false, "\(String(describing: d0))")
        let routes = report.root["default_routes"] as? [[String: Any]] ?? []
        #expect(routes.contains { $0["gateway"] as? String == "198.51.100.1" }, "\(routes)")
        #expect(run.loopbackPacketsSent == 0, "lo sent packets: \(run.stats)")
    }

    @Test func onlyIPv6RequestedWithOnlyAnIPv4RouteIsOffline() throws {
        let sandbox = try Sandbox()
        let config = try sandbox.write(ProbeSet.healthy(3))
        let run = try sandbox.run(["--json", "-6", "--config", config], network: .online, servers: [ProbeSet.httpServer])
        #expect(run.status == 1, "\(run)")
        let report = try run.report()
        #expect(report.verdict == "offline")
        #expect(report.reason == "no-default-route")
        #expect(report.probes.allSatisfy { $0.outcome == "skipped" }, "\(run)")
        #expect(run.loopbackPacketsSent == 0, "lo sent packets: \(run.stats)")
    }
}
