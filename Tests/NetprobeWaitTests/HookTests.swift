import Foundation
import Testing

extension LabSuite {
    /// `watch --exec`: argv without a shell, environment, JSON on stdin, time limit, no overlap.
    @Suite("netprobe watch --exec")
    struct HookTests {
        private func contents(_ path: String) -> String {
            (try? String(contentsOfFile: path, encoding: .utf8)) ?? ""
        }

        /// A zombie waiting for a (possibly lazy) reaper is dead too.
        private func isAlive(_ pid: Int32) -> Bool {
            guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
                  let close = stat.lastIndex(of: ")") else { return false }
            return !stat[stat.index(after: close)...].hasPrefix(" Z")
        }

        @Test func hookGetsTheEnvironmentArgumentsAndJSONOnStdin() throws {
            let lab = try Lab()
            defer { lab.close() }
            let dir = lab.directory
            // Numbered by the runs before it: hooks never overlap, so the count is stable.
            let hook = try lab.file("hook.sh", """
                #!/bin/sh
                n=$(ls \(dir)/run-*.done 2>/dev/null | wc -l)
                env | grep '^NETPROBE_' | sort > \(dir)/run-$n.env
                printf '%s\\n' "$@" > \(dir)/run-$n.args
                cat > \(dir)/run-$n.json
                echo "hook output goes to stderr, not among the records"
                touch \(dir)/run-$n.done
                """, executable: true)
            // Text records on stdout: "--json" after --exec belongs to the hook, not to netprobe.
            let watch = try lab.netprobe(["watch", "--config", lab.config, "--interval", "1", "--exec", hook, "two words", "--json"])
            defer { watch.stop() }

            #expect(FileEvents.until(dir, timeout: 10) { FileManager.default.fileExists(atPath: "\(dir)/run-0.done") })
            #expect(contents("\(dir)/run-0.env") == """
                NETPROBE_EVENT=start
                NETPROBE_FAULT=
                NETPROBE_FAULT_DETAIL=
                NETPROBE_INTERFACE=v0
                NETPROBE_NETWORK_ID=
                NETPROBE_NETWORK_NAME=
                NETPROBE_PORTAL_BYTES_REMAINING=
                NETPROBE_PORTAL_EXPIRES_AT=
                NETPROBE_PORTAL_URL=
                NETPROBE_PREVIOUS=
                NETPROBE_PREVIOUS_REASON=
                NETPROBE_REASON=probes-validated
                NETPROBE_TRIGGER=start
                NETPROBE_VERDICT=online

                """)
            #expect(contents("\(dir)/run-0.args") == "two words\n--json\n")
            let first = try Record.parse(contents("\(dir)/run-0.json").trimmingCharacters(in: .newlines))
            #expect(first.event == "start" && first.state == "online/probes-validated")

            try lab.setPortal(true)
            #expect(FileEvents.until(dir, timeout: 10) { FileManager.default.fileExists(atPath: "\(dir)/run-1.done") })
            // The re-check that found the portal is the interval's, or one a netlink event of
            // the namespace's own (an address settling) happened to start first.
            let changeEnvironment = contents("\(dir)/run-1.env")
            #expect(changeEnvironment.contains("NETPROBE_TRIGGER=interval\n") || changeEnvironment.contains("NETPROBE_TRIGGER=link\n"))
            #expect(changeEnvironment.split(separator: "\n").filter { !$0.hasPrefix("NETPROBE_TRIGGER=") }.joined(separator: "\n") == """
                NETPROBE_EVENT=change
                NETPROBE_FAULT=
                NETPROBE_FAULT_DETAIL=
                NETPROBE_INTERFACE=v0
                NETPROBE_NETWORK_ID=
                NETPROBE_NETWORK_NAME=
                NETPROBE_PORTAL_BYTES_REMAINING=
                NETPROBE_PORTAL_EXPIRES_AT=
                NETPROBE_PORTAL_URL=http://portal.example/login?room=1
                NETPROBE_PREVIOUS=online
                NETPROBE_PREVIOUS_REASON=probes-validated
                NETPROBE_REASON=http-redirect
                NETPROBE_VERDICT=portal
                """)
            let second = try Record.parse(contents("\(dir)/run-1.json").trimmingCharacters(in: .newlines))
            #expect(second.state == "portal/http-redirect" && second.previous == "online")

            let stamp = #"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ"#
            let lines = watch.lines
            #expect(lines.count == 2)
            #expect(lines.first?.wholeMatch(of: try Regex(stamp + #" online probes-validated \(start\)"#)) != nil, "\(lines)")
            #expect(lines.last?.wholeMatch(of: try Regex(stamp + #" portal http-redirect login http://portal\.example/login\?room=1 \(was online: probes-validated\)"#)) != nil, "\(lines)")
            #expect(watch.stderr.contains("hook output goes to stderr"))
        }

        /// `watch --all-paths`: a path that comes (an uplink with its own default route) is a record
        /// naming it, and the hook is told which path changed. (The probe servers listen on this
        /// namespace's loopback, which no interface-bound probe reaches: verdicts are not the point.)
        @Test func allPathsTellsTheHookWhichPathChanged() throws {
            let lab = try Lab()
            defer { lab.close() }
            let dir = lab.directory
            let hook = try lab.file("hook.sh", """
                #!/bin/sh
                n=$(ls \(dir)/run-*.done 2>/dev/null | wc -l)
                env | grep '^NETPROBE_PATH_' | sort > \(dir)/run-$n.env
                touch \(dir)/run-$n.done
                """, executable: true)
            let watch = try lab.netprobe(["watch", "--config", lab.config, "--json", "--all-paths", "-i", "v1", "--timeout", "1",
                                          "--exec", hook])
            defer { watch.stop() }

            #expect(FileEvents.until(dir, timeout: 10) { FileManager.default.fileExists(atPath: "\(dir)/run-0.done") })
            #expect(contents("\(dir)/run-0.env") == "NETPROBE_PATH_FAMILY=\nNETPROBE_PATH_INTERFACE=\n")
            let start = try JSONSerialization.jsonObject(with: Data(try #require(watch.lines.first).utf8)) as? [String: Any]
            #expect(start?["reason"] as? String == "no-link")

            try lab.ipBatch([
                "link add v1 type veth peer name v1p",
                "link set v1p up",
                "link set v1 up",
                "addr add 203.0.113.10/24 dev v1",
                "route add default via 203.0.113.1 dev v1 metric 500",
            ])
            #expect(FileEvents.until(dir, timeout: 15) { FileManager.default.fileExists(atPath: "\(dir)/run-1.done") })
            #expect(contents("\(dir)/run-1.env") == "NETPROBE_PATH_FAMILY=ipv4\nNETPROBE_PATH_INTERFACE=v1\n")
            let change = try JSONSerialization.jsonObject(with: Data(try #require(watch.lines.dropFirst().first).utf8)) as? [String: Any]
            #expect((change?["changed"] as? [String])?.contains("paths") == true, "\(watch.lines)")
            let changed = try #require(change?["changed_paths"] as? [[String: Any]])
            #expect(changed.first?["interface"] as? String == "v1" && changed.first?["family"] as? String == "ipv4", "\(watch.lines)")
            let paths = try #require(change?["paths"] as? [[String: Any]])
            #expect(paths.count == 1 && paths[0]["interface"] as? String == "v1" && paths[0]["family"] as? String == "ipv4")
        }

        /// SIGTERM (systemd's stop) or SIGINT while a hook runs: watch ends the hook's process
        /// group and exits 0 within a second, not after --exec-timeout, its record written. This
        /// hook ignores SIGTERM (and so does the child it started), so it takes the SIGKILL.
        @Test(arguments: [SIGTERM, SIGINT])
        func aStopSignalEndsTheRunningHookAndWatchAtOnce(_ stop: Int32) throws {
            let lab = try Lab()
            defer { lab.close() }
            let dir = lab.directory
            let hook = try lab.file("hook.sh", """
                #!/bin/sh
                trap '' TERM
                sleep 60 &
                echo $! > \(dir)/sleep.pid
                echo $$ > \(dir)/hook.pid.tmp
                mv \(dir)/hook.pid.tmp \(dir)/hook.pid
                while :; do wait; done
                """, executable: true)
            let watch = try lab.netprobe(["watch", "--config", lab.config, "--json", "--exec-timeout", "60", "--exec", hook])
            defer { watch.stop() }
            #expect(FileEvents.until(dir, timeout: 10) { FileManager.default.fileExists(atPath: "\(dir)/hook.pid") })
            let hookPID = try #require(Int32(contents("\(dir)/hook.pid").trimmingCharacters(in: .whitespacesAndNewlines)))
            let sleepPID = try #require(Int32(contents("\(dir)/sleep.pid").trimmingCharacters(in: .whitespacesAndNewlines)))
            #expect(watch.waitForLines(1, timeout: 10).count == 1)

            let stopped = Date()
            watch.signal(stop)
            #expect(watch.waitForExit(timeout: 10 * Slowdown.factor) == 0)
            #expect(Date().timeIntervalSince(stopped) < Slowdown.factor, "watch waited for the hook")
            #expect(!isAlive(hookPID) && !isAlive(sleepPID), "the hook's process group outlived watch")
            // The start record, then the stop record of the clean exit (no hook is run for it).
            let records = try Record.parseAll(watch.lines)
            #expect(records.map(\.description) == ["start online/probes-validated (was -)", "stop online/probes-validated (was -)"])
        }

        @Test func aHangingHookIsKilledAndTheNextWaitsForIt() throws {
            let lab = try Lab()
            defer { lab.close() }
            let dir = lab.directory
            // The first run hangs (with a child of its own); later runs finish quickly.
            let hook = try lab.file("hook.sh", """
                #!/bin/sh
                echo "begin $$ $(date +%s.%N)" >> \(dir)/log
                if [ ! -e \(dir)/hung ]; then
                  touch \(dir)/hung
                  sleep 60 &
                  echo $! > \(dir)/sleep.pid
                  echo $$ > \(dir)/hook.pid
                  wait
                fi
                sleep 0.2
                echo "end $$ $(date +%s.%N)" >> \(dir)/log
                """, executable: true)
            let watch = try lab.netprobe(["watch", "--config", lab.config, "--json", "--exec-timeout", "1.5", "--exec", hook])
            defer { watch.stop() }
            // hook.pid is written last: then both are complete.
            #expect(FileEvents.until(dir, timeout: 10) { Int32(contents("\(dir)/hook.pid").trimmingCharacters(in: .whitespacesAndNewlines)) != nil })
            let hookPID = try #require(Int32(contents("\(dir)/hook.pid").trimmingCharacters(in: .whitespacesAndNewlines)))
            let sleepPID = try #require(Int32(contents("\(dir)/sleep.pid").trimmingCharacters(in: .whitespacesAndNewlines)))

            // A change while the hook hangs: its record and hook wait for the first hook to end.
            try lab.ip("route", "del", "default")
            #expect(FileEvents.until(dir, timeout: 10) { contents("\(dir)/log").split(separator: "\n").count >= 3 }, "\(contents("\(dir)/log"))")
            // Both the hook and what it started are gone (killed as a process group, by the hook's PID).
            #expect(!isAlive(hookPID) && !isAlive(sleepPID))
            #expect(watch.stderr.contains("was killed"), "\(watch.stderr)")

            let log = contents("\(dir)/log").split(separator: "\n").map { $0.split(separator: " ") }
            #expect(log.map { String($0[0]) } == ["begin", "begin", "end"])
            let firstBegin = try #require(Double(log[0][2]))
            let secondBegin = try #require(Double(log[1][2]))
            #expect(secondBegin - firstBegin >= 1.4, "the second hook started only after the first was killed")
            #expect(log[1][1] == log[2][1])
            let all = try Record.parseAll(watch.lines)
            #expect(all.map(\.state) == ["online/probes-validated", "offline/no-default-route"])
            watch.signal(SIGTERM)
            #expect(watch.waitForExit(timeout: 10) == 0)
        }
    }
}
