import Foundation
@testable import NetprobeWire
@testable import NetprobeReport
import NetprobeWatch
import Testing

/// A `watch --json` record as watch writes it since it carries the boot clocks: `wall` is the
/// record's timestamp (seconds after `origin`, as the wall clock said), `boottime` and
/// `monotonic` the kernel's seconds since boot at that moment (nil: a watch that wrote none).
private func stamped(_ event: String, wall: Double, boottime: Double?, monotonic: Double?, trigger: String = "interval",
                     verdict: String = "online", reason: String = "probes-validated", boot: String? = bootA,
                     heartbeat: Double = 900) -> String {
    let time = Timestamp.iso8601(Date(timeIntervalSince1970: Double(origin) / 1000 + wall), fractional: false)
    let id = boot.map { "\"\($0)\"" } ?? "null"
    let clocks = boottime.map { ",\"boot_id\":\(id),\"boottime_seconds\":\($0),\"monotonic_seconds\":\(monotonic ?? 0)" } ?? ""
    return "{\"event\":\"\(event)\",\"trigger\":\"\(trigger)\",\"heartbeat_seconds\":\(heartbeat)\(clocks),"
        + "\"timestamp\":\"\(time)\",\"verdict\":\"\(verdict)\",\"reason\":\"\(reason)\",\"portal\":null,\"paths\":[]}"
}

private let bootA = "2f9c8a57-1c1e-4f27-9d0c-7a6f1b2e3d4c"
private let bootB = "8e1d0c2b-5a4f-4e3d-8c2b-1a0f9e8d7c6b"
/// 2026-03-02T08:00:00Z.
private let origin = RFC3339.milliseconds("2026-03-02T08:00:00Z")!
private let hour = 3600.0, day = 86_400.0

private func observed(_ lines: [String], now: Int64? = nil) -> (observed: Int64, online: Int64, offline: Int64) {
    var summarizer = WatchSummarizer()
    for (index, line) in lines.enumerated() {
        #expect(summarizer.add(line: Array(line.utf8), source: "log", line: index + 1) == nil, "line \(index + 1): \(line)")
    }
    let summary = summarizer.finish(now: now)
    return (summary.overall?.observed ?? 0, summary.overall?.online ?? 0, summary.overall?.offline ?? 0)
}

struct ClockTruthCase: Sendable, CustomTestStringConvertible {
    var label: String
    var lines: [String]
    /// The time the log's watch was awake and observing, in seconds.
    var truth: Double
    var testDescription: String { label }
}

private let clockTruthCases: [ClockTruthCase] = [
    // Awake 60 s, asleep 14 h (the lid closed), awake 15 s: the record after the resume says
    // boottime ran 14 h further than monotonic.
    ClockTruthCase(label: "a laptop asleep 14 h between two records", lines: [
        stamped("start", wall: 0, boottime: 1000, monotonic: 1000, trigger: "start"),
        stamped("alive", wall: 60 + 14 * hour, boottime: 1060 + 14 * hour, monotonic: 1060, trigger: "resume"),
        stamped("stop", wall: 75 + 14 * hour, boottime: 1075 + 14 * hour, monotonic: 1075, trigger: "signal"),
    ], truth: 75),
    // The same sleep where the watch woke for its heartbeat only (no resume record): the
    // heartbeat after the sleep still shows 60 s awake since the record before it.
    ClockTruthCase(label: "a laptop asleep 14 h, no record at the resume", lines: [
        stamped("start", wall: 0, boottime: 1000, monotonic: 1000, trigger: "start"),
        stamped("alive", wall: 60 + 14 * hour + 840, boottime: 1900 + 14 * hour, monotonic: 1900),
        stamped("stop", wall: 60 + 14 * hour + 855, boottime: 1915 + 14 * hour, monotonic: 1915, trigger: "signal"),
    ], truth: 915),
    // A Raspberry Pi without a clock: it starts at its last shutdown's time, NTP steps the clock
    // 3 days ahead 20 s later (watch marks the step), then it runs 30 min.
    ClockTruthCase(label: "a clock stepped 3 days ahead after the start record", lines: [
        stamped("start", wall: 0, boottime: 30, monotonic: 30, trigger: "start"),
        stamped("alive", wall: 3 * day + 20, boottime: 50, monotonic: 50, trigger: "clock"),
        stamped("alive", wall: 3 * day + 920, boottime: 950, monotonic: 950),
        stamped("alive", wall: 3 * day + 1820, boottime: 1850, monotonic: 1850),
        stamped("stop", wall: 3 * day + 1820, boottime: 1850, monotonic: 1850, trigger: "signal"),
    ], truth: 1820),
    // The same step with no record marking it: the first heartbeat's clocks still tell.
    ClockTruthCase(label: "a clock stepped 3 days ahead, unmarked", lines: [
        stamped("start", wall: 0, boottime: 30, monotonic: 30, trigger: "start"),
        stamped("change", wall: 3 * day + 600, boottime: 630, monotonic: 630, trigger: "link", verdict: "offline", reason: "no-link"),
        stamped("stop", wall: 3 * day + 1200, boottime: 1230, monotonic: 1230, trigger: "signal", verdict: "offline", reason: "no-link"),
    ], truth: 1200),
    // Before the clocks were written: the silence rule alone, the sleep and the minute before it unproven.
    ClockTruthCase(label: "an older watch without the clocks: a silence longer than the heartbeat is not observed", lines: [
        stamped("start", wall: 0, boottime: nil, monotonic: nil, trigger: "start"),
        stamped("alive", wall: 60 + 14 * hour, boottime: nil, monotonic: nil, trigger: "resume"),
        stamped("stop", wall: 75 + 14 * hour, boottime: nil, monotonic: nil, trigger: "signal"),
    ], truth: 15),
    ClockTruthCase(label: "a watch awake and silent for longer than its heartbeat (hung) proves nothing in between", lines: [
        stamped("start", wall: 0, boottime: 100, monotonic: 100, trigger: "start"),
        stamped("alive", wall: 900, boottime: 1000, monotonic: 1000),
        stamped("alive", wall: 900 + 3000, boottime: 4000, monotonic: 4000),
        stamped("stop", wall: 900 + 3010, boottime: 4010, monotonic: 4010, trigger: "signal"),
    ], truth: 910),
    ClockTruthCase(label: "ordinary heartbeats: every second counted", lines: [
        stamped("start", wall: 0, boottime: 100, monotonic: 100, trigger: "start"),
        stamped("alive", wall: 900, boottime: 1000, monotonic: 1000),
        stamped("alive", wall: 1800, boottime: 1900, monotonic: 1900),
        stamped("stop", wall: 1850, boottime: 1950, monotonic: 1950, trigger: "signal"),
    ], truth: 1850),
]

@Suite("report: only time a run proved")
struct WatchClockTruthTests {
    @Test(arguments: clockTruthCases)
    func observedTimeIsTheTruth(_ example: ClockTruthCase) {
        let result = observed(example.lines)
        #expect(abs(Double(result.observed) / 1000 - example.truth) <= 2, "observed \(Double(result.observed) / 1000) s, truth \(example.truth) s")
    }

    /// The state before a sleep ends where the sleep began, and the one after it starts at the
    /// record after the resume: an outage that spans the sleep is two, the sleep in neither.
    @Test func aSleepEndsTheStateAtTheLastMomentAwake() throws {
        var summarizer = WatchSummarizer()
        for line in [
            stamped("start", wall: 0, boottime: 1000, monotonic: 1000, trigger: "start", verdict: "offline", reason: "no-link"),
            stamped("alive", wall: 60 + 14 * hour, boottime: 1060 + 14 * hour, monotonic: 1060, trigger: "resume",
                    verdict: "offline", reason: "no-link"),
            stamped("stop", wall: 75 + 14 * hour, boottime: 1075 + 14 * hour, monotonic: 1075, trigger: "signal",
                    verdict: "offline", reason: "no-link"),
        ] { _ = summarizer.add(line: Array(line.utf8), source: "log", line: 0) }
        let summary = summarizer.finish()
        let overall = try #require(summary.overall)
        #expect(overall.offline == 75_000)
        #expect(overall.outages.count == 2 && overall.outages.longest?.duration == 60_000)
        #expect(summary.unproven == 1)
        #expect(SummaryText.runs(summary).contains("1 stretch(es) unproven"))
        #expect(summary.notObserved == Int64(14 * hour * 1000))
    }

    /// Records of another boot, or with clocks that went backwards, are not compared: the silence rule alone applies.
    @Test func clocksOfAnotherBootAreNotCompared() {
        let lines = [
            stamped("start", wall: 0, boottime: 5000, monotonic: 5000, trigger: "start"),
            stamped("alive", wall: 600, boottime: 20, monotonic: 20, boot: bootB),
            stamped("stop", wall: 610, boottime: 30, monotonic: 30, trigger: "signal", boot: bootB),
        ]
        #expect(observed(lines).observed == 610_000)
    }

    /// A watch in a sandbox that hid the boot's id writes "boot_id": null: two such records may
    /// be of two boots (the second boot's start record lost), whose clocks say nothing of each
    /// other. Here the machine rebooted between them and the new boot's monotonic clock happens
    /// to read 300 s more: that is no proof of 300 s awake. The heartbeat rule alone applies.
    @Test func recordsWithoutABootProofAreHeldToTheHeartbeatRuleOnly() {
        let across = [
            stamped("start", wall: 0, boottime: 100, monotonic: 100, trigger: "start", boot: nil),
            stamped("alive", wall: 600, boottime: 400, monotonic: 400, boot: nil),
            stamped("stop", wall: 610, boottime: 410, monotonic: 410, trigger: "signal", boot: nil),
        ]
        #expect(observed(across).observed == 610_000)
        // One side known, the other not: not one boot either.
        let half = [
            stamped("start", wall: 0, boottime: 100, monotonic: 100, trigger: "start", boot: bootA),
            stamped("alive", wall: 600, boottime: 400, monotonic: 400, boot: nil),
            stamped("stop", wall: 610, boottime: 410, monotonic: 410, trigger: "signal", boot: nil),
        ]
        #expect(observed(half).observed == 610_000)
        // A silence longer than the heartbeat and its grace still proves nothing.
        let silent = [
            stamped("start", wall: 0, boottime: 100, monotonic: 100, trigger: "start", boot: nil),
            stamped("alive", wall: 3000, boottime: 3100, monotonic: 3100, boot: nil),
            stamped("stop", wall: 3010, boottime: 3110, monotonic: 3110, trigger: "signal", boot: nil),
        ]
        #expect(observed(silent).observed == 10_000)
        // The same two readings under one known boot do compare: 300 s awake of the 600.
        let known = [
            stamped("start", wall: 0, boottime: 100, monotonic: 100, trigger: "start"),
            stamped("alive", wall: 600, boottime: 700, monotonic: 400),
            stamped("stop", wall: 610, boottime: 710, monotonic: 410, trigger: "signal"),
        ]
        #expect(observed(known).observed == 310_000)
    }

    @Test func theClockKeysAreReadAndBadValuesIgnored() throws {
        let good = try WatchLogRecord.parse(Array(stamped("alive", wall: 0, boottime: 12.5, monotonic: 10.25).utf8))
        #expect(good.bootID == bootA && good.boottimeMs == 12_500 && good.monotonicMs == 10_250)
        for bad in [#""monotonic_seconds":-1"#, #""monotonic_seconds":1e300"#, #""monotonic_seconds":"10""#] {
            let line = #"{"timestamp":"2026-03-02T08:00:00Z","verdict":"online","reason":"probes-validated","#
                + #""boot_id":"x","boottime_seconds":5,"# + bad + "}"
            let record = try WatchLogRecord.parse(Array(line.utf8))
            #expect(record.monotonicMs == nil && record.boottimeMs == 5000, "\(bad)")
        }
        let long = #"{"timestamp":"2026-03-02T08:00:00Z","verdict":"online","reason":"x","boot_id":""#
            + String(repeating: "a", count: 65) + "\"}"
        #expect(try WatchLogRecord.parse(Array(long.utf8)).bootID == nil)
    }
}

/// Where watch's records take the boot's id from: the kernel's file, else the id the service
/// manager handed down (systemd's `%b`: 32 hex digits), always written in the kernel's form.
@Suite("watch: the boot's id, read or handed down")
struct BootIdentityTests {
    static let kernel = "2f9c8a57-1c1e-4f27-9d0c-7a6f1b2e3d4c"

    @Test func theKernelsFileWinsAndAHandedDownIdIsWrittenInTheKernelsForm() {
        typealias Clock = NetprobeWatch.SystemWatchClock
        #expect(Clock.bootID(kernel: Self.kernel + "\n", handedDown: nil) == Self.kernel)
        #expect(Clock.bootID(kernel: Self.kernel + "\n", handedDown: "8e1d0c2b5a4f4e3d8c2b1a0f9e8d7c6b") == Self.kernel)
        // ProcSubset=pid hid the file: systemd's form, or the kernel's, or upper case, all one id.
        #expect(Clock.bootID(kernel: nil, handedDown: "2f9c8a571c1e4f279d0c7a6f1b2e3d4c") == Self.kernel)
        #expect(Clock.bootID(kernel: nil, handedDown: Self.kernel) == Self.kernel)
        #expect(Clock.bootID(kernel: nil, handedDown: Self.kernel.uppercased()) == Self.kernel)
        #expect(Clock.bootID(kernel: "garbage", handedDown: "2f9c8a571c1e4f279d0c7a6f1b2e3d4c") == Self.kernel)
    }

    @Test(arguments: [
        "", "%b", "2f9c8a571c1e4f279d0c7a6f1b2e3d4", "2f9c8a571c1e4f279d0c7a6f1b2e3d4c0",
        "2f9c8a5-71c1e-4f27-9d0c-7a6f1b2e3d4c", "2f9c8a57-1c1e-4f27-9d0c-7a6f1b2e3d4g", "2f9c8a57-1c1e4f27-9d0c-7a6f1b2e3d4c",
    ])
    func anythingElseIsNoBootProof(_ text: String) {
        #expect(NetprobeWatch.SystemWatchClock.bootID(kernel: nil, handedDown: text) == nil)
    }
}
