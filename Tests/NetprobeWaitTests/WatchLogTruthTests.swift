import Foundation
import Testing

extension LabSuite {
    /// `netprobe report` on a log that real watches wrote in a namespace: a run stopped with
    /// SIGTERM, one killed with SIGKILL, a restart still running (the live tail) and then
    /// stopped with SIGINT. What the report counts is checked against the records' own
    /// timestamps and the test's clock (given as --now), never against a guess of durations.
    @Suite("netprobe report on logs watch wrote")
    struct WatchLogTruthTests {
        /// The parts of a record the accounting rests on.
        struct Line {
            var event: String
            var verdict: String
            var ms: Int64
            var heartbeat: Double?
        }

        static func parse(_ line: String) throws -> Line {
            let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            let stamp = try #require(object["timestamp"] as? String)
            return Line(event: try #require(object["event"] as? String), verdict: try #require(object["verdict"] as? String),
                        ms: try milliseconds(stamp), heartbeat: object["heartbeat_seconds"] as? Double)
        }

        static func milliseconds(_ stamp: String) throws -> Int64 {
            let formatter = ISO8601DateFormatter()
            formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
            let date = try #require(formatter.date(from: stamp) ?? ISO8601DateFormatter().date(from: stamp), "\(stamp)")
            return Int64((date.timeIntervalSince1970 * 1000).rounded())
        }

        static func stamp(_ ms: Int64) -> String {
            let formatter = ISO8601DateFormatter()
            formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
            return formatter.string(from: Date(timeIntervalSince1970: Double(ms) / 1000))
        }

        /// `report --format json --now NOW LOG`, the overall path and the top level.
        static func report(_ log: String, now: Int64) throws -> (top: [String: Any], overall: [String: Any]) {
            let output = try Tool.run(NetprobeBinary.path, ["report", "--format", "json", "--now", stamp(now), log])
            let top = try #require(try JSONSerialization.jsonObject(with: Data(output.utf8)) as? [String: Any], "\(output)")
            let paths = try #require(top["paths"] as? [[String: Any]])
            let overall = try #require(paths.first { $0["scope"] as? String == "overall" })
            return (top, overall)
        }

        static func int(_ value: Any?) -> Int64? { (value as? NSNumber)?.int64Value }

        @Test func stopCrashRestartAndLiveTail() throws {
            let lab = try Lab()
            defer { lab.close() }
            let log = lab.directory + "/watch.jsonl"
            #expect(FileManager.default.createFile(atPath: log, contents: nil))
            func append(_ lines: [String]) throws {
                let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: log))
                defer { try? handle.close() }
                try handle.seekToEnd()
                try handle.write(contentsOf: Data(lines.map { $0 + "\n" }.joined().utf8))
            }
            // --interval 600: nothing but the route changes and the heartbeat writes a record.
            let arguments = ["watch", "--config", lab.config, "--json", "--hold", "0", "--interval", "600", "--heartbeat", "1"]

            // Run A: online, a real outage (the default route goes and comes back), SIGTERM.
            let a = try lab.netprobe(arguments)
            defer { a.stop() }
            #expect(a.waitForLines(1, timeout: 10).count == 1)
            try lab.ip("route", "del", "default")
            #expect(a.waitForStdout(timeout: 10) { $0.contains { $0.contains(#""event":"change""#) && $0.contains(#""verdict":"offline""#) } })
            try lab.ip("route", "add", "default", "via", "198.51.100.1", "dev", "v0")
            #expect(a.waitForStdout(timeout: 10) { $0.contains { $0.contains(#""event":"change""#) && $0.contains(#""verdict":"online""#) } })
            a.signal(SIGTERM)
            #expect(a.waitForExit(timeout: 10) == 0)
            let runA = try a.lines.map(Self.parse)
            try append(a.lines)
            #expect(runA.first?.event == "start" && runA.last?.event == "stop" && runA.last?.verdict == "online")
            #expect(runA.allSatisfy { $0.heartbeat == 1 })

            // Run B: started after a stopped stretch, killed once it has written two heartbeats.
            let b = try lab.netprobe(arguments)
            defer { b.stop() }
            #expect(b.waitForStdout(timeout: 15) { $0.filter { $0.contains(#""event":"alive""#) }.count >= 2 }, "\(b.lines)")
            b.signal(SIGKILL)
            _ = b.waitForExit(timeout: 10)
            let runB = try b.lines.map(Self.parse)
            try append(b.lines)
            #expect(runB.first?.event == "start" && runB.last?.event == "alive")

            // Run C: running while the report is made (the live tail).
            let c = try lab.netprobe(arguments)
            defer { c.stop() }
            #expect(c.waitForLines(1, timeout: 10).count == 1)
            let tail = c.lines
            try append(tail)
            let runC = try tail.map(Self.parse)
            let now = Int64((Date().timeIntervalSince1970 * 1000).rounded())

            let aStart = runA[0].ms, aStop = runA.last!.ms
            let down = try #require(runA.first { $0.verdict == "offline" }).ms
            let up = try #require(runA.last { $0.event == "change" && $0.verdict == "online" }).ms
            let bStart = runB[0].ms, bLast = runB.last!.ms, cStart = runC[0].ms
            let live = try Self.report(log, now: now)
            #expect(live.top["runs"] as? Int == 3 && live.top["stops"] as? Int == 1 && live.top["lost_runs"] as? Int == 1)
            #expect(live.top["live"] as? Bool == true)
            // Each run counted from its start: A to its stop, B to its last heartbeat, C to now.
            let observed = (aStop - aStart) + (bLast - bStart) + (now - cStart)
            #expect(Self.int(live.overall["observed_ms"]) == observed)
            #expect(Self.int(live.overall["offline_ms"]) == up - down)
            #expect(Self.int(live.overall["online_ms"]) == observed - (up - down))
            // Between A's stop and B's start, and between B's last record and C's start: not observed.
            #expect(Self.int(live.top["not_observed_ms"]) == (bStart - aStop) + (cStart - bLast))
            #expect(Self.int(live.top["span_ms"]) == now - aStart)
            let outages = try #require(live.overall["outages"] as? [String: Any])
            #expect(outages["count"] as? Int == 1 && Self.int(outages["total_ms"]) == up - down)

            // The same log read later than C's heartbeat and the grace (60 s at least) allow:
            // C is proven running up to its last record only.
            let later = try Self.report(log, now: runC.last!.ms + 61_001)
            #expect(later.top["live"] as? Bool == false && later.top["lost_runs"] as? Int == 2)
            #expect(Self.int(later.overall["observed_ms"]) == (aStop - aStart) + (bLast - bStart) + (runC.last!.ms - cStart))

            // C stops on SIGINT: its stop record ends the log, and the report counts it to there.
            c.signal(SIGINT)
            #expect(c.waitForExit(timeout: 10) == 0)
            let restC = try c.lines.map(Self.parse)
            try append(Array(c.lines.dropFirst(tail.count)))
            #expect(restC.last?.event == "stop")
            let stopped = try Self.report(log, now: restC.last!.ms + 3_600_000)
            #expect(stopped.top["stopped"] as? Bool == true && stopped.top["stops"] as? Int == 2 && stopped.top["live"] as? Bool == false)
            #expect(Self.int(stopped.overall["observed_ms"]) == (aStop - aStart) + (bLast - bStart) + (restC.last!.ms - cStart))
            let text = try Tool.run(NetprobeBinary.path, ["report", "--now", Self.stamp(restC.last!.ms + 3_600_000), log])
            #expect(text.contains("watch: 3 run(s), 2 stopped, 1 ended without a stop"), "\(text)")
        }
    }
}
