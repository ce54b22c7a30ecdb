import Foundation
import Synchronization
import Testing

extension LabSuite {
    /// `watch` as a service: the textfile it keeps, and the hold against flapping.
    @Suite("netprobe watch --textfile and --hold")
    struct WatchDaemonTests {
        private func text(_ path: String) -> String {
            (try? String(contentsOfFile: path, encoding: .utf8)) ?? ""
        }

        @Test func theTextfileIsWrittenAtOnceFollowsAnOutageAndIsNeverSeenHalfWritten() throws {
            let lab = try Lab()
            defer { lab.close() }
            let directory = lab.directory + "/textfile"
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
            let path = directory + "/netprobe.prom"
            let started = Date()
            let watch = try lab.netprobe(["watch", "--config", lab.config, "--json", "--hold", "0", "--interval", "0.1",
                                          "--textfile", path])
            defer { watch.stop() }
            #expect(FileEvents.until(directory, timeout: 10) { text(path).contains("netprobe_verdict{verdict=\"online\"} 1") })
            // The first check of this lab takes a few milliseconds: the file is there within a second.
            #expect(Date().timeIntervalSince(started) < 1 * Slowdown.factor)
            let attributes = try FileManager.default.attributesOfItem(atPath: path)
            #expect((attributes[.posixPermissions] as? Int) == 0o644)

            // A reader polling it all along (as the collector may read it at any moment) only ever
            // sees whole files: each one ends with watch's last series and a newline.
            let stop = Atomic<Bool>(false)
            // Behind an NSLock (a pthread mutex, which ThreadSanitizer sees), not Synchronization's
            // Mutex: its futex is invisible to TSan, which then reports the two threads' accesses.
            let seen = LockedValue<(reads: Int, partial: [String])>((0, []))
            let reader = Thread {
                while !stop.load(ordering: .relaxed) {
                    guard let content = try? String(contentsOfFile: path, encoding: .utf8) else { continue }
                    let whole = content.hasSuffix("\n") && content.contains("# TYPE netprobe_probe_bytes_total counter")
                    seen.withLock {
                        $0.reads += 1
                        if !whole { $0.partial.append(String(content.suffix(200))) }
                    }
                }
            }
            reader.start()
            defer { stop.store(true, ordering: .relaxed) }

            // An outage is in the file within a second (it is a netlink event: checked at once).
            let checksBefore = try #require(counter("netprobe_checks_total", in: text(path)))
            let cut = Date()
            try lab.ip("route", "del", "default")
            #expect(FileEvents.until(directory, timeout: 5) { text(path).contains("netprobe_verdict{verdict=\"offline\"} 1") })
            #expect(Date().timeIntervalSince(cut) < 1 * Slowdown.factor, "the textfile followed the outage late")
            let after = text(path)
            #expect(after.contains("netprobe_reason_info{verdict=\"offline\",reason=\"no-default-route\"} 1"))
            #expect((counter("netprobe_checks_total", in: after) ?? 0) > checksBefore)
            #expect(counter("netprobe_changes_total", in: after) == 1)
            try lab.ip("route", "add", "default", "via", "198.51.100.1", "dev", "v0")
            #expect(FileEvents.until(directory, timeout: 5) { counter("netprobe_changes_total", in: text(path)) == 2 })

            stop.store(true, ordering: .relaxed)
            let result = seen.withLock { $0 }
            #expect(result.reads > 10, "the reader did read it")
            #expect(result.partial.isEmpty, "a reader saw a partial file: \(result.partial.prefix(3))")
            // Only the file itself is left in the directory: no temporary file lingers.
            #expect(try FileManager.default.contentsOfDirectory(atPath: directory) == ["netprobe.prom"])

            // promtool, the Prometheus project's own checker, finds nothing to say.
            let final = text(path)
            #expect(final.contains("netprobe_last_check_timestamp_seconds "))
            #expect(final.contains("netprobe_probe_bytes_total{probe=\"apple\",direction=\"sent\"} "))
            let lint = try Tool.run(Tool.find("promtool"), ["check", "metrics"], input: final)
            #expect(lint.isEmpty, "\(lint)")

            watch.signal(SIGTERM)
            #expect(watch.waitForExit(timeout: 5) == 0)
        }

        private func counter(_ name: String, in text: String) -> Int? {
            text.split(separator: "\n").first { $0.hasPrefix(name + " ") }.flatMap { Int($0.split(separator: " ")[1]) }
        }

        @Test func holdThreeIgnoresFlappingAndReportsAnOutageAndItsEndOnceEach() throws {
            let lab = try Lab()
            defer { lab.close() }
            let watch = try lab.netprobe(["watch", "--config", lab.config, "--json", "--hold", "3"])
            defer { watch.stop() }
            #expect(watch.waitForLines(1, timeout: 10).count == 1)

            // The link drops for 200 ms and comes back, again and again for four seconds.
            var script = "set -e\n"
            for _ in 0..<10 {
                script += "ip -n \(lab.namespace) link set v0p down; sleep 0.2\n"
                script += "ip -n \(lab.namespace) link set v0p up; sleep 0.2\n"
            }
            try Tool.run(Tool.bash, ["-c", script])
            #expect(!watch.receivesLine(after: 1, within: 5), "a flap was reported: \(watch.lines)")

            // A 6 s outage: one record, not before the hold has passed.
            let down = Date()
            try lab.ip("link", "set", "v0p", "down")
            #expect(watch.receivesLine(after: 1, within: 10))
            let reportedAfter = Date().timeIntervalSince(down)
            #expect(reportedAfter >= 3, "reported \(reportedAfter) s after the outage began")
            #expect(reportedAfter < 3 + 2 * Slowdown.factor, "reported \(reportedAfter) s after the outage began")
            let outage = try Record.parse(watch.lines[1])
            #expect(outage.state == "offline/no-link" && outage.trigger == "link")
            #expect(!watch.receivesLine(after: 2, within: max(0, 6 - Date().timeIntervalSince(down))))

            // Recovery: one record, again after the hold.
            let up = Date()
            try lab.ip("link", "set", "v0p", "up")
            #expect(watch.receivesLine(after: 2, within: 10))
            #expect(Date().timeIntervalSince(up) >= 3)
            #expect(try Record.parse(watch.lines[2]).state == "online/probes-validated")
            #expect(!watch.receivesLine(after: 3, within: 4), "\(watch.lines)")
            watch.signal(SIGTERM)
            #expect(watch.waitForExit(timeout: 5) == 0)
            #expect(watch.lines.count == 4)
            #expect(try Record.parse(watch.lines[3]).description == "stop online/probes-validated (was -)")
        }
    }
}

/// A value shared between threads behind an NSLock.
final class LockedValue<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Value

    init(_ value: Value) { self.value = value }

    func withLock<Result>(_ body: (inout Value) -> Result) -> Result {
        lock.lock()
        defer { lock.unlock() }
        return body(&value)
    }
}
