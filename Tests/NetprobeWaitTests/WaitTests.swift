import Foundation
import Testing

extension LabSuite {
    /// `netprobe wait`, the real binary, in private network namespaces.
    @Suite("netprobe wait in a network namespace")
    struct WaitTests {
        @Test func returnsSoonAfterADefaultRouteAppears() throws {
            let lab = try Lab(defaultRoute: false)
            defer { lab.close() }
            let wait = try lab.netprobe(["wait", "--config", lab.config, "--timeout", "30", "--json"])
            defer { wait.stop() }
            // Half-way between the backoff re-checks at 1 s and 3 s: only the netlink event can make it quick.
            #expect(!wait.exits(within: 1.5))
            let added = Date()
            try lab.ip("route", "add", "default", "via", "198.51.100.1", "dev", "v0")
            let status = wait.waitForExit(timeout: 15)
            let reaction = Date().timeIntervalSince(added)
            print("wait reaction time, from `ip route add` to exit: \(String(format: "%.0f", reaction * 1000)) ms")
            #expect(status == 0)
            let report = try Record.parse(try #require(wait.lines.last))
            #expect(report.verdict == "online" && report.reason == "probes-validated")
            // Loose on purpose (the figure is printed above): the backoff timer alone would need 1.5 s.
            #expect(reaction < 1.2)
        }

        @Test func timesOutWithStatusOneWhileOffline() throws {
            let lab = try Lab(defaultRoute: false)
            defer { lab.close() }
            let started = Date()
            let wait = try lab.netprobe(["wait", "--config", lab.config, "--timeout", "2.5", "--json"])
            defer { wait.stop() }
            let status = wait.waitForExit(timeout: 15)
            let elapsed = Date().timeIntervalSince(started)
            #expect(status == 1)
            #expect(elapsed >= 2.4 && elapsed < 5, "the deadline is hard: \(elapsed) s")
            let report = try Record.parse(try #require(wait.lines.last))
            #expect(report.verdict == "offline" && report.reason == "no-default-route")
        }

        @Test func timesOutWithStatusTwoBehindAPortal() throws {
            let lab = try Lab(portal: true)
            defer { lab.close() }
            let started = Date()
            let wait = try lab.netprobe(["wait", "--config", lab.config, "--timeout", "2", "--json"])
            defer { wait.stop() }
            let status = wait.waitForExit(timeout: 15)
            let elapsed = Date().timeIntervalSince(started)
            #expect(status == 2)
            #expect(elapsed >= 1.9 && elapsed < 5, "the deadline is hard: \(elapsed) s")
            let report = try Record.parse(try #require(wait.lines.last))
            #expect(report.verdict == "portal" && report.reason == "http-redirect")
            #expect(report.portal?.url == "http://portal.example/login?room=1")
        }

        @Test func returnsAtOnceWhenAlreadyOnlineAndPrintsTheReport() throws {
            let lab = try Lab()
            defer { lab.close() }
            let wait = try lab.netprobe(["wait", "--config", lab.config])
            defer { wait.stop() }
            #expect(wait.waitForExit(timeout: 10) == 0)
            #expect(wait.lines.first?.hasPrefix("online  probes-validated") == true)
            #expect(wait.stderr.isEmpty, "no progress line when stderr is not a terminal")
        }

        @Test func quietPrintsNothingAndABadConfigIsStatus78() throws {
            let lab = try Lab()
            defer { lab.close() }
            let quiet = try lab.netprobe(["wait", "--config", lab.config, "-q"])
            #expect(quiet.waitForExit(timeout: 10) == 0)
            #expect(quiet.lines.isEmpty && quiet.stderr.isEmpty)
            let broken = try lab.file("broken.json", "{ \"version\": 1, \"probes\": 3 }")
            let bad = try lab.netprobe(["wait", "--config", broken, "--timeout", "1"])
            #expect(bad.waitForExit(timeout: 10) == 78)
            #expect(bad.stderr.contains("invalid configuration"))
        }
    }
}
