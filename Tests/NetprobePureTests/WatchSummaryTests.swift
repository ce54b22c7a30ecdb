@testable import NetprobeWire
@testable import NetprobeVerdict
@testable import NetprobeOutput
@testable import NetprobeReport
@testable import NetprobeSystem
@testable import NetprobeNetwork
@testable import NetprobeCheck
@testable import NetprobeWatch
import Testing

/// A watch record as JSON Lines text: the keys the summary reads plus some it must ignore.
private func record(_ minute: Double, _ verdict: String, _ reason: String, url: String? = nil,
                    paths: [(String?, String?, String, String)]? = nil, extra: String = "", event: String = "change",
                    heartbeat: Double? = nil) -> String {
    let seconds = Int(minute * 60)
    let stamp = "2026-03-02T\(two(seconds / 3600)):\(two(seconds / 60 % 60)):\(two(seconds % 60))Z"
    let portal = url.map { "{\"url\":\(JSONPath.quoted($0)),\"expires_at\":null}" } ?? "null"
    let pathList = (paths ?? []).map { path in
        "{\"interface\":\(path.0.map(JSONPath.quoted) ?? "null"),\"family\":\(path.1.map(JSONPath.quoted) ?? "null"),"
            + "\"verdict\":\"\(path.2)\",\"reason\":\"\(path.3)\",\"portal\":null,\"default\":true}"
    }.joined(separator: ",")
    let beat = heartbeat.map { ",\"heartbeat_seconds\":\($0)" } ?? ""
    return "{\"event\":\"\(event)\",\"trigger\":\"link\"\(beat),\"timestamp\":\"\(stamp)\",\"verdict\":\"\(verdict)\",\"reason\":\"\(reason)\","
        + "\"portal\":\(portal),\"paths\":[\(pathList)],\"probes\":[{\"operator\":\"apple\",\"timings\":{\"total_ms\":\(20 + minute)}},"
        + "{\"operator\":\"google\",\"timings\":null}]\(extra)}"
}

private func two(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }

private func summarise(_ lines: [String], window: Int = WatchSummarizer.defaultWindow, now: Int64? = nil) -> (WatchSummary, [WatchSummarizer.Skipped]) {
    WatchLogFixture.summarise(lines, window: window, now: now)
}

private let minute: Int64 = 60_000
/// Where `record`'s minutes count from.
private let day = RFC3339.milliseconds("2026-03-02T00:00:00Z")!

struct OutageCase: Sendable, CustomTestStringConvertible {
    var label: String
    var lines: [String]
    var window = WatchSummarizer.defaultWindow
    var outages: Int
    var outageMs: Int64
    var longestMs: Int64?
    var longestReasons: [String]
    var portals: Int
    var portalMs: Int64
    var observedMs: Int64
    var onlineMs: Int64
    var testDescription: String { label }
}

private let outageLog = [
    record(0, "online", "probes-validated", event: "start"),
    record(10, "offline", "no-default-route"),
    record(18, "offline", "no-link"),  // the same outage, another reason
    record(25, "online", "probes-validated"),
    record(60, "offline", "timeout"),
    record(65, "online", "probes-validated"),
    record(120, "online", "probes-validated", event: "stop"),  // watch ended: the state ran until here
]

private let outageCases: [OutageCase] = [
    OutageCase(label: "two outages, one with two reasons", lines: outageLog, outages: 2, outageMs: 20 * minute, longestMs: 15 * minute,
               longestReasons: ["no-default-route", "no-link"], portals: 0, portalMs: 0, observedMs: 120 * minute, onlineMs: 100 * minute),
    OutageCase(label: "the same log shuffled: sorted by timestamp", lines: [outageLog[3], outageLog[0], outageLog[6], outageLog[2], outageLog[1], outageLog[5], outageLog[4]],
               outages: 2, outageMs: 20 * minute, longestMs: 15 * minute, longestReasons: ["no-default-route", "no-link"],
               portals: 0, portalMs: 0, observedMs: 120 * minute, onlineMs: 100 * minute),
    OutageCase(label: "an outage still open at the end runs to the heartbeat that last proved it",
               lines: [record(0, "online", "probes-validated", event: "start"), record(30, "offline", "dns-failed"),
                       record(50, "offline", "dns-failed", event: "alive")],
               outages: 1, outageMs: 20 * minute, longestMs: 20 * minute, longestReasons: ["dns-failed"],
               portals: 0, portalMs: 0, observedMs: 50 * minute, onlineMs: 30 * minute),
    OutageCase(label: "a portal period across a change of login URL is one period",
               lines: [record(0, "online", "probes-validated"), record(10, "portal", "http-redirect", url: "http://a.example/"),
                       record(20, "portal", "http-redirect", url: "http://b.example/"), record(40, "online", "probes-validated"),
                       record(45, "offline", "timeout"), record(46, "portal", "http-511", url: "http://a.example/"), record(50, "online", "probes-validated")],
               outages: 1, outageMs: 1 * minute, longestMs: 1 * minute, longestReasons: ["timeout"],
               portals: 2, portalMs: 34 * minute, observedMs: 50 * minute, onlineMs: 15 * minute),
    OutageCase(label: "one record and no clock: nothing observed for any length of time",
               lines: [record(5, "offline", "no-link")], outages: 1, outageMs: 0, longestMs: 0, longestReasons: ["no-link"],
               portals: 0, portalMs: 0, observedMs: 0, onlineMs: 0),
    OutageCase(label: "malformed and truncated lines are skipped, the rest counted",
               lines: [record(0, "online", "probes-validated"), "not json", String(record(5, "offline", "timeout").prefix(40)),
                       "{\"timestamp\":\"yesterday\",\"verdict\":\"online\",\"reason\":\"x\"}", "", record(10, "offline", "timeout"),
                       record(20, "online", "probes-validated")],
               outages: 1, outageMs: 10 * minute, longestMs: 10 * minute, longestReasons: ["timeout"],
               portals: 0, portalMs: 0, observedMs: 20 * minute, onlineMs: 10 * minute),
]

@Suite("report: state accounting")
struct WatchSummaryTests {
    @Test(arguments: outageCases)
    func overallAccounting(_ example: OutageCase) throws {
        let (summary, _) = summarise(example.lines, window: example.window)
        let overall = try #require(summary.overall)
        #expect(overall.outages.count == example.outages)
        #expect(overall.outages.totalMs == example.outageMs)
        #expect(overall.outages.longest?.duration == example.longestMs)
        #expect(overall.outages.longest?.reasons ?? [] == example.longestReasons)
        #expect(overall.portals.count == example.portals)
        #expect(overall.portals.totalMs == example.portalMs)
        #expect(overall.observed == example.observedMs)
        #expect(overall.online == example.onlineMs)
        #expect(overall.online + overall.portal + overall.offline == overall.observed)
        // The timeline buckets hold the same time as the totals.
        let bucketed = overall.timeline.cells.reduce(StateTime.empty) { $0.merged(with: $1) }
        #expect(bucketed == StateTime(online: overall.online, portal: overall.portal, offline: overall.offline))
    }

    @Test func malformedLinesAreCountedWithTheirLineNumbers() {
        let (summary, skipped) = summarise(outageCases[5].lines)
        #expect(summary.malformed == 3)
        #expect(summary.records == 3)
        #expect(summary.lines == 7)  // the blank line is a line, not a record and not malformed
        #expect(skipped.map(\.line) == [2, 3, 4])
        #expect(skipped.allSatisfy { $0.source == "log" })
        #expect(skipped[2].message.contains("RFC 3339"))
    }

    @Test func shuffledInputIsReorderedAndSaysSo() {
        let (summary, skipped) = summarise(outageCases[1].lines)
        #expect(skipped.isEmpty)
        #expect(summary.reordered > 0)
        #expect(summary.late == 0)
    }

    @Test func aRecordOlderThanTheWindowIsSkippedNotMisplaced() {
        // Window of 2: the record from minute 1 arrives after four later ones.
        let lines = [record(0, "online", "probes-validated"), record(10, "offline", "timeout"), record(20, "online", "probes-validated"),
                     record(30, "online", "probes-validated"), record(1, "offline", "no-link"), record(40, "online", "probes-validated")]
        let (summary, skipped) = summarise(lines, window: 2)
        #expect(summary.late == 1)
        #expect(skipped.map(\.line) == [5])
        #expect(summary.overall?.outages.count == 1)
        #expect(summary.overall?.outages.totalMs == 10 * minute)
    }

    @Test func emptyInput() {
        let (summary, skipped) = summarise([])
        #expect(skipped.isEmpty)
        #expect(summary.records == 0)
        #expect(summary.overall == nil)
        #expect(SummaryText.format(summary).contains("no records"))
        #expect(SummaryDocument.format(summary).contains("\"paths\":[]"))
        #expect(!SummaryHTML.format(summary).contains("<svg"))
    }

    @Test func aLoneStartOfAWatchStillRunningRunsToTheReportsClock() throws {
        let start = record(5, "online", "probes-validated", paths: [("eth0", "ipv4", "online", "probes-validated")], event: "start",
                           heartbeat: 900)
        let (summary, _) = summarise([start], now: day + 10 * minute)
        #expect(summary.live && summary.span == 5 * minute && summary.until == day + 10 * minute)
        let overall = try #require(summary.overall)
        #expect(overall.availability == 1 && overall.observed == 5 * minute)
        #expect(overall.current?.state.verdict == .online)
        #expect(summary.paths.map(\.key?.label) == ["eth0 ipv4"])
        #expect(summary.paths.first?.observed == 5 * minute)
        #expect(SummaryDocument.format(summary).contains("\"availability\":1"))
        #expect(SummaryDocument.format(summary).contains("\"live\":true"))
    }

    /// A 20 s outage; SIGTERM; 20 s stopped; a second watch appended to the same log, killed 30 s
    /// after its start, and the report run then: 80 s observed, 60 of them online.
    @Test func aStopEndsTheStateAndTheTimeUntilTheNextStartIsNotObserved() throws {
        let second = 1.0 / 60
        let log = [
            record(0, "online", "probes-validated", event: "start", heartbeat: 900),
            record(10 * second, "offline", "no-default-route", heartbeat: 900),
            record(30 * second, "online", "probes-validated", heartbeat: 900),
            record(50 * second, "online", "probes-validated", event: "stop", heartbeat: 900),
            record(70 * second, "online", "probes-validated", event: "start", heartbeat: 900),
        ]
        let (summary, _) = summarise(log, now: day + 100_000)
        let overall = try #require(summary.overall)
        #expect(overall.observed == 80_000 && overall.online == 60_000 && overall.offline == 20_000)
        #expect(overall.availability == 0.75)
        #expect(summary.notObserved == 20_000 && summary.span == 100_000)
        #expect(summary.runs == 2 && summary.stops == 1 && summary.lostRuns == 0 && summary.live)
        #expect(overall.outages.count == 1 && overall.outages.longest?.duration == 20_000)
        #expect(SummaryText.format(summary).contains("watch: 2 run(s), 1 stopped; not observed 20s; still running"))

        // The same log read long after: the second watch fell silent for longer than its heartbeat
        // and a grace (900 + 225 s); it is proven alive at its start only.
        let (later, _) = summarise(log, now: day + 70_000 + 900_000 + 225_001)
        #expect(later.overall?.observed == 50_000 && later.overall?.online == 30_000)
        #expect(later.runs == 2 && later.lostRuns == 1 && !later.live)
        #expect(later.until == day + 70_000)
        #expect(SummaryText.format(later).contains("nothing written since 2026-03-02T00:01:10Z"))
        // ... and within the grace, still running.
        let (justInTime, _) = summarise(log, now: day + 70_000 + 900_000 + 225_000)
        #expect(justInTime.live && justInTime.overall?.observed == 50_000 + 900_000 + 225_000)
    }

    @Test func aStartWithNoStopBeforeItShowsAWatchThatDiedAfterItsLastRecord() throws {
        let log = [
            record(0, "online", "probes-validated", event: "start", heartbeat: 600),
            record(10, "online", "probes-validated", event: "alive", heartbeat: 600),
            record(14, "portal", "http-redirect", url: "http://login.example/", heartbeat: 600),
            // SIGKILL at some point after minute 14; a new watch starts at 30.
            record(30, "offline", "no-link", event: "start", heartbeat: 600),
            record(40, "online", "probes-validated", heartbeat: 600),
            record(45, "online", "probes-validated", event: "stop", heartbeat: 600),
        ]
        let (summary, _) = summarise(log, now: day + 50 * minute)
        let overall = try #require(summary.overall)
        #expect(overall.observed == 29 * minute)  // 0-14 and 30-45
        #expect(overall.online == 19 * minute && overall.offline == 10 * minute && overall.portal == 0)
        #expect(overall.portals.count == 1 && overall.portals.longest?.duration == 0 && overall.portals.longest?.ongoing == false)
        #expect(summary.runs == 2 && summary.stops == 1 && summary.lostRuns == 1 && summary.stopped && !summary.live)
        #expect(summary.notObserved == 16 * minute && summary.until == day + 45 * minute)
        // The timeline holds the observed time only.
        let bucketed = overall.timeline.cells.reduce(StateTime.empty) { $0.merged(with: $1) }
        #expect(bucketed.total == overall.observed)
        #expect(overall.final?.verdict == .online && overall.current == nil)
    }

    @Test func aLogWithoutHeartbeatsProvesItsLastStateToItsLastRecordOnly() throws {
        let log = [record(0, "online", "probes-validated", event: "start"), record(10, "offline", "timeout")]
        let (summary, _) = summarise(log, now: day + 60 * minute)
        #expect(summary.overall?.observed == 10 * minute && summary.overall?.offline == 0)
        #expect(!summary.live && summary.lostRuns == 0 && summary.until == day + 10 * minute)
        #expect(summary.overall?.outages.longest?.ongoing == true)
    }

    @Test func heartbeatsAndStopsAddNoLatencySamples() throws {
        let log = [record(0, "online", "probes-validated", event: "start", heartbeat: 900),
                   record(15, "online", "probes-validated", event: "alive", heartbeat: 900),
                   record(20, "online", "probes-validated", event: "stop", heartbeat: 900)]
        let (summary, _) = summarise(log, now: day + 20 * minute)
        #expect(summary.latency.first?.total.count == 1)
        #expect(summary.overall?.reasons.first?.count == 1)  // one online period
        #expect(summary.overall?.online == 20 * minute)
    }

    @Test func pathsComeAndGo() throws {
        let lines = [
            record(0, "online", "probes-validated", paths: [("eth0", "ipv4", "online", "probes-validated"), ("wlan0", "ipv4", "portal", "http-redirect")]),
            record(10, "online", "probes-validated", paths: [("eth0", "ipv4", "online", "probes-validated")]),  // wlan0 gone
            record(30, "offline", "no-default-route", paths: [(nil, nil, "offline", "no-default-route")]),  // eth0 gone too
            record(40, "online", "probes-validated", paths: [("eth0", "ipv4", "online", "probes-validated")]),
            record(60, "online", "probes-validated", paths: [("eth0", "ipv4", "online", "probes-validated")]),
        ]
        let (summary, _) = summarise(lines)
        let byName = Dictionary(uniqueKeysWithValues: summary.paths.map { ($0.key?.label ?? "", $0) })
        let eth0 = try #require(byName["eth0 ipv4"]), wlan0 = try #require(byName["wlan0 ipv4"]), down = try #require(byName["none any"])
        #expect(eth0.observed == 50 * minute)  // 0-30 and 40-60; absent 30-40 is not counted as anything
        #expect(eth0.availability == 1)
        #expect(wlan0.portal == 10 * minute)
        #expect(wlan0.portals.count == 1)
        #expect(wlan0.portals.longest?.ongoing == false)
        #expect(down.offline == 10 * minute)
        #expect(summary.overall?.outages.count == 1)
    }

    @Test func reasonsAreCountedByPeriodAndTimed() throws {
        let (summary, _) = summarise(outageLog)
        let reasons = try #require(summary.overall?.reasons)
        let timeout = try #require(reasons.first { $0.reason == "timeout" })
        #expect(timeout.count == 1 && timeout.ms == 5 * minute && timeout.verdict == .offline)
        let validated = try #require(reasons.first { $0.reason == "probes-validated" })
        #expect(validated.count == 3)  // three online periods; the stop record is not a new one
        #expect(validated.ms == 100 * minute)
    }

    @Test func latencyIsGroupedByOperator() throws {
        let (summary, _) = summarise(outageLog)
        #expect(summary.latency.map(\.name) == ["apple"])  // google's timings are null
        let apple = try #require(summary.latency.first)
        #expect(apple.total.count == 6)  // the stop record repeats a check's evidence: no sample
        #expect(apple.total.min == 20 && apple.total.max == 85)
    }

    @Test func unknownKeysAndNewEventsAreIgnored() {
        let lines = [record(0, "online", "probes-validated", extra: ",\"dns\":{\"servers\":[]},\"future\":[1,{\"a\":null}]"),
                     record(5, "online", "probes-validated", extra: ",\"expiring\":true").replacingOccurrences("\"change\"", "\"expiring\"")]
        let (summary, skipped) = summarise(lines)
        #expect(skipped.isEmpty)
        #expect(summary.records == 2)
    }

    @Test func anOverlongLineIsRefusedUnread() {
        var summarizer = WatchSummarizer()
        var reader = WatchLogLines(source: "big")
        var skipped: [WatchSummarizer.Skipped] = []
        let chunk = [UInt8](repeating: UInt8(ascii: "x"), count: 300_000)
        for _ in 0..<4 { chunk.withUnsafeBytes { reader.consume($0, into: &summarizer) { skipped.append($0) } } }
        Array((record(0, "online", "probes-validated") + "\n").utf8).withUnsafeBytes {
            reader.consume($0, into: &summarizer) { skipped.append($0) }
        }
        Array("\n".utf8).withUnsafeBytes { reader.consume($0, into: &summarizer) { skipped.append($0) } }
        reader.finish(into: &summarizer) { skipped.append($0) }
        #expect(skipped.count == 1)
        #expect(skipped.first?.message.contains("longer than") == true)
        #expect(summarizer.finish().records == 0)  // the record was glued to the long line: one line, refused
    }

    @Test func everyRecordStringIsEscapedInEveryFormat() {
        let hostile = "http://evil.example/\u{1B}[2J<script>alert(1)</script>\u{202E}\"'&"
        let lines = [record(0, "online", "probes-validated", paths: [("eth\u{1B}0<b>", "ipv4", "online", "probes-validated")]),
                     record(5, "portal", "http-redirect\\u0007", url: hostile), record(9, "online", "probes-validated")]
        let (summary, _) = summarise(lines)
        let text = SummaryText.format(summary)
        #expect(!text.unicodeScalars.contains { $0.value == 0x1B || $0.value == 0x07 || $0.value == 0x202E })
        let html = SummaryHTML.format(summary)
        #expect(!html.contains("<script"))
        #expect(!html.contains("<b>"))
        #expect(html.contains("&lt;script&gt;alert(1)&lt;/script&gt;"))
        #expect(!html.unicodeScalars.contains { $0.value == 0x1B || $0.value == 0x202E })
    }
}

@Suite("report: RFC 3339 timestamps")
struct RFC3339Tests {
    @Test(arguments: [
        ("1970-01-01T00:00:00Z", Int64(0)),
        ("2026-03-02T10:00:07.123Z", Int64(1_772_445_607_123)),
        ("2026-03-02t12:00:07.1+02:00", Int64(1_772_445_607_100)),
        ("2026-03-02T05:30:07.123456789-04:30", Int64(1_772_445_607_123)),
        ("2024-02-29T00:00:00Z", Int64(1_709_164_800_000)),
        ("2016-12-31T23:59:60Z", Int64(1_483_228_800_000)),
        ("1969-12-31T23:59:59.5Z", Int64(-500)),
    ])
    func valid(_ text: String, _ milliseconds: Int64) {
        #expect(RFC3339.milliseconds(text) == milliseconds)
    }

    @Test(arguments: [
        "", "2026-03-02", "2026-03-02T10:00:07", "2026-03-02 10:00:07Z", "2026-13-02T10:00:07Z", "2025-02-29T10:00:07Z",
        "2026-03-02T24:00:00Z", "2026-03-02T10:60:00Z", "2026-03-02T10:00:61Z", "2026-03-02T10:00:07.Z", "2026-03-02T10:00:07+0200",
        "2026-03-02T10:00:07Z ", " 2026-03-02T10:00:07Z", "+2026-03-02T10:00:07Z", "2026-3-02T10:00:07Z", "2026-03-02T10:00:07+24:00",
        "2026-03-00T10:00:07Z", "2026-04-31T10:00:07Z", "9999-12-31T23:59:50.999-23:59", "0000-01-01T00:00:00+00:01", "2026-03-02T10:00:07.1234567890123456789012345678901234567890123456789012Z",
    ])
    func invalid(_ text: String) {
        #expect(RFC3339.milliseconds(text) == nil)
    }

    @Test func roundTripsWithTheFormatter() {
        for ms in stride(from: Int64(-2_000_000_000_000), through: 4_000_000_000_000, by: 77_777_777_777) {
            #expect(RFC3339.milliseconds(SummaryText.timestamp(ms)) == ms)
        }
    }
}

@Suite("report: bounded buckets")
struct TimeBucketsTests {
    @Test func coarseningKeepsEveryMillisecond() {
        var buckets = TimeBuckets<StateTime>(origin: 1_000, capacity: 8)
        buckets.add(.online, from: 1_000, to: 5_500)
        buckets.add(.offline, from: 5_500, to: 400_000)
        buckets.add(.portal, from: 400_000, to: 10_000_000_000)
        #expect(buckets.cells.count <= 8)
        let total = buckets.cells.reduce(StateTime.empty) { $0.merged(with: $1) }
        #expect(total == StateTime(online: 4_500, portal: 10_000_000_000 - 400_000, offline: 394_500))
    }
}

extension String {
    fileprivate func replacingOccurrences(_ target: String, _ replacement: String) -> String {
        split(separator: target, omittingEmptySubsequences: false).joined(separator: replacement)
    }
}
