import Foundation
import Testing

extension LabSuite {
    /// `netprobe watch`, the real binary, in private network namespaces.
    @Suite("netprobe watch in a network namespace")
    struct WatchTests {
        /// Waits for `count` records and parses them all.
        private func records(_ watch: Child, _ count: Int, timeout: Double = 10) throws -> [Record] {
            let lines = watch.waitForLines(count, timeout: timeout)
            try #require(lines.count >= count, "expected \(count) records, got \(lines.count): \(lines); stderr: \(watch.stderr)")
            return try Record.parseAll(lines)
        }

        /// Waits until no new record has arrived for `quiet` seconds (bounded by `timeout`).
        private func settledRecords(_ watch: Child, quiet: Double, timeout: Double) throws -> [Record] {
            let end = Date().addingTimeInterval(timeout)
            while end.timeIntervalSinceNow > 0, watch.receivesLine(after: watch.lines.count, within: min(quiet, end.timeIntervalSinceNow)) {}
            return try Record.parseAll(watch.lines)
        }

        @Test func oneRecordPerChangeThroughAScriptedSequence() throws {
            let lab = try Lab()
            defer { lab.close() }
            let watch = try lab.netprobe(["watch", "--config", lab.config, "--json", "--interval", "1"])
            defer { watch.stop() }

            let start = try records(watch, 1)[0]
            #expect(start.schemaVersion == 1 && start.event == "start" && start.state == "online/probes-validated")
            #expect(start.trigger == "start")
            #expect(start.previous == nil && start.previousReason == nil && start.changed == [])

            try lab.ip("route", "del", "default")
            let down = try records(watch, 2)[1]
            #expect(down.event == "change" && down.state == "offline/no-default-route")
            #expect(down.previous == "online" && down.previousReason == "probes-validated" && down.changed == ["verdict", "reason"])
            #expect(down.trigger == "link")

            try lab.ip("route", "add", "default", "via", "198.51.100.1", "dev", "v0")
            let up = try records(watch, 3)[2]
            #expect(up.state == "online/probes-validated" && up.previous == "offline")

            // No kernel event here: the --interval re-check must notice the portal.
            try lab.setPortal(true)
            let portal = try records(watch, 4)[3]
            #expect(portal.state == "portal/http-redirect" && portal.portal?.url == "http://portal.example/login?room=1")
            #expect(portal.changed == ["verdict", "reason", "portal_url"])

            // The backoff re-check (1 s while not online) notices the login.
            try lab.setPortal(false)
            let loggedIn = try records(watch, 5)[4]
            #expect(loggedIn.state == "online/probes-validated" && loggedIn.previous == "portal" && loggedIn.portal == nil)

            // Three more interval re-checks with nothing new: no more records.
            #expect(!watch.receivesLine(after: 5, within: 3.2), "\(watch.lines)")
            watch.signal(SIGTERM)
            #expect(watch.waitForExit(timeout: 10) == 0)
        }

        /// --hold 0: every settled state is reported, so the debounce alone decides what is seen.
        @Test func hundredLinkFlapsLoseAndDoubleNothing() throws {
            let lab = try Lab()
            defer { lab.close() }
            let watch = try lab.netprobe(["watch", "--config", lab.config, "--json", "--hold", "0"])
            defer { watch.stop() }
            _ = try records(watch, 1)

            // A burst: 100 flaps of the peer in one `ip -batch` (v0 loses and regains carrier;
            // its routes stay, marked linkdown). Debounced, it costs a check or two, not 200.
            try lab.ipBatch((0..<100).flatMap { _ in ["link set v0p down", "link set v0p up"] })
            var all = try settledRecords(watch, quiet: 3, timeout: 30)
            print("100 flaps in a burst: \(all.count - 1) change record(s)")
            checkChain(all)
            #expect(all.count <= 5)
            #expect(all.last?.state == "online/probes-validated")

            // 100 flaps at uneven pace (10 to 200 ms per state, around the 100 ms debounce),
            // ending with the link down: whatever was reported, the chain holds and the last record is right.
            let holds = ["0.01", "0.2", "0.05", "0.12", "0.03", "0.15", "0.08"]
            var script = "set -e\n"
            for flap in 0..<100 {
                script += "ip -n \(lab.namespace) link set v0p down; sleep \(holds[flap % holds.count])\n"
                script += "ip -n \(lab.namespace) link set v0p up; sleep \(holds[(flap + 3) % holds.count])\n"
            }
            script += "ip -n \(lab.namespace) link set v0p down\n"
            let before = all.count
            try Tool.run(Tool.bash, ["-c", script])
            all = try settledRecords(watch, quiet: 3, timeout: 30)
            print("100 flaps at uneven pace: \(all.count - before) change record(s)")
            checkChain(all)
            #expect(all.count - before >= 2, "the flaps were seen")
            #expect(all.last?.state == "offline/no-link")

            // Slow flaps, each state held until it was reported (well beyond the debounce): every one is a record.
            let slowBefore = all.count
            for _ in 0..<5 {
                for state in ["up", "down"] {
                    let seen = watch.lines.count
                    try lab.ip("link", "set", "v0p", state)
                    #expect(watch.receivesLine(after: seen, within: 10), "link \(state) was not reported")
                }
            }
            all = try settledRecords(watch, quiet: 2, timeout: 20)
            checkChain(all)
            #expect(all.count - slowBefore == 10, "\(all.dropFirst(slowBefore))")
            #expect(all.last?.state == "offline/no-link")
        }

        /// A policy rule alone (no link, address or route of the main table changes) moves the
        /// kernel's answer for the machine's traffic into a black hole and back: with --interval
        /// 600 only the rule's own netlink event can make watch look, within 2 s each way.
        @Test func aPolicyRuleChangeIsCheckedAtOnce() throws {
            let lab = try Lab()
            defer { lab.close() }
            try lab.ip("route", "add", "blackhole", "default", "table", "100")
            // No IPv6: its addresses settling (duplicate address detection) would be netlink
            // events of their own, and could wake watch in the rule's stead.
            try Tool.run(Tool.ip, ["netns", "exec", lab.namespace, Tool.find("sysctl"), "-qw", "net.ipv6.conf.all.disable_ipv6=1",
                                   "net.ipv6.conf.v0.disable_ipv6=1", "net.ipv6.conf.v0p.disable_ipv6=1"])
            let watch = try lab.netprobe(["watch", "--config", lab.config, "--json", "--hold", "0", "--interval", "600"])
            defer { watch.stop() }
            #expect(try records(watch, 1)[0].state == "online/probes-validated")

            try lab.ip("rule", "add", "pref", "100", "lookup", "100")
            let cut = Date()
            #expect(watch.receivesLine(after: 1, within: 2 * Slowdown.factor), "no record within 2 s of the rule: \(watch.lines)")
            let down = try records(watch, 2)[1]
            #expect(Date().timeIntervalSince(cut) < 2 * Slowdown.factor)
            #expect(down.verdict == "offline" && down.trigger == "link", "\(down)")

            try lab.ip("rule", "del", "pref", "100")
            let restored = Date()
            #expect(watch.receivesLine(after: 2, within: 2 * Slowdown.factor), "no record within 2 s of the rule's removal: \(watch.lines)")
            let up = try records(watch, 3)[2]
            #expect(Date().timeIntervalSince(restored) < 2 * Slowdown.factor)
            #expect(up.state == "online/probes-validated" && up.trigger == "link")
            watch.signal(SIGTERM)
            #expect(watch.waitForExit(timeout: 10) == 0)
        }

        /// One start record, then changes that each differ from the record before and name it as "previous".
        private func checkChain(_ records: [Record]) {
            #expect(records.first?.event == "start")
            #expect(records.dropFirst().allSatisfy { $0.event == "change" })
            for (earlier, later) in zip(records, records.dropFirst()) {
                #expect(earlier.state != later.state, "doubled record: \(earlier) then \(later)")
                #expect(later.previous == earlier.verdict && later.previousReason == earlier.reason, "lost record between \(earlier) and \(later)")
            }
        }

        @Test func sigtermFinishesTheCurrentRecordThenExitsZero() throws {
            let lab = try Lab(probeDelayMs: 1500)
            defer { lab.close() }
            let started = Date()
            let watch = try lab.netprobe(["watch", "--config", lab.config, "--json"])
            defer { watch.stop() }
            // The first check is under way, waiting for its (slow) probes.
            #expect(lab.waitForProbeRequest(timeout: 10))
            watch.signal(SIGTERM)
            #expect(watch.waitForExit(timeout: 10) == 0)
            #expect(Date().timeIntervalSince(started) >= 1.4, "it finished the check first")
            let all = try Record.parseAll(watch.lines)
            #expect(all.map(\.description) == ["start online/probes-validated (was -)", "stop online/probes-validated (was -)"])

            // Idle (asleep in poll), SIGINT ends it at once.
            let idle = try lab.netprobe(["watch", "--config", lab.config, "--json"])
            defer { idle.stop() }
            _ = try records(idle, 1, timeout: 15)
            let interrupted = Date()
            idle.signal(SIGINT)
            #expect(idle.waitForExit(timeout: 10) == 0)
            #expect(Date().timeIntervalSince(interrupted) < Slowdown.factor)
        }

        @Test func sighupReloadsAndKeepsTheOldConfigurationWhenTheNewOneIsBad() throws {
            let lab = try Lab()
            defer { lab.close() }
            let good = try String(contentsOfFile: lab.config, encoding: .utf8)
            let watch = try lab.netprobe(["watch", "--config", lab.config, "--json"])
            defer { watch.stop() }
            _ = try records(watch, 1)

            _ = try lab.file("probes.json", "{ this is not json")
            watch.signal(SIGHUP)
            #expect(watch.waitForStderr(timeout: 5) { $0.contains("keeping the previous configuration") }, "\(watch.stderr)")
            #expect(watch.isRunning)
            try lab.ip("route", "del", "default")
            #expect(try records(watch, 2)[1].state == "offline/no-default-route")
            try lab.ip("route", "add", "default", "via", "198.51.100.1", "dev", "v0")
            #expect(try records(watch, 3)[2].state == "online/probes-validated")

            // A valid new probe set is used at once: these paths answer with a portal's redirect.
            _ = try lab.file("probes.json", good.replacingOccurrences(of: "/hotspot-detect.html", with: "/redirect")
                .replacingOccurrences(of: "/generate_204", with: "/redirect"))
            watch.signal(SIGHUP)
            #expect(try records(watch, 4)[3].state == "portal/http-redirect")
            #expect(watch.stderr.contains("reloaded the configuration"))
            watch.signal(SIGTERM)
            #expect(watch.waitForExit(timeout: 10) == 0)
            #expect(watch.lines.count == 5)
            #expect(try Record.parse(watch.lines[4]).description == "stop portal/http-redirect (was -)")
        }

        @Test func aClosedStdoutEndsItQuietly() throws {
            let lab = try Lab()
            defer { lab.close() }
            let script = "ip netns exec \(lab.namespace) \(NetprobeBinary.path) watch --config \(lab.config) --json | head -n 1; echo \"status=${PIPESTATUS[0]}\""
            let started = Date()
            let pipeline = try Child(Tool.bash, ["-c", script])
            defer { pipeline.stop() }
            #expect(pipeline.waitForExit(timeout: 15) == 0)
            #expect(Date().timeIntervalSince(started) < 8, "watch noticed its reader was gone without waiting for a change")
            #expect(pipeline.lines.count == 2)
            #expect(try Record.parse(pipeline.lines[0]).event == "start")
            #expect(pipeline.lines.last == "status=0")
            #expect(pipeline.stderr.isEmpty, "quietly: \(pipeline.stderr)")
        }
    }
}
