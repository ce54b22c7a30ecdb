#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import NetprobeWire
import NetprobeVerdict
import NetprobeOutput
import NetprobeReport
import NetprobeSystem
import NetprobeNetwork
import NetprobeCheck
@testable import NetprobeWatch
import Testing

/// Both boot clocks, moved by the test: `advance` is time awake, `sleep` a suspend
/// (CLOCK_BOOTTIME moves, CLOCK_MONOTONIC does not).
final class ScriptedClock: WatchClock {
    private(set) var reading = ClockReading(monotonic: .seconds(1000), boottime: .seconds(1000))
    func now() -> ClockReading { reading }
    func wallNow() -> Date { Date() }
    func advance(_ duration: Duration) {
        reading.monotonic += duration
        reading.boottime += duration
    }
    func suspend(for duration: Duration) { reading.boottime += duration }
}

/// What wakes the loop, step by step. Each step is given the timeout the loop asked for (the
/// time to its next timer) and says what woke it, moving the clock as it likes. When the script
/// runs out, SIGTERM ends the loop.
final class ScriptedWatchEvents: WatchEvents {
    var steps: [(Duration?) -> ChangeWaiter.Wake]
    private(set) var timeouts: [Duration?] = []
    init(_ steps: [(Duration?) -> ChangeWaiter.Wake]) { self.steps = steps }
    func beginCheck() {}
    func next(within timeout: Duration?, decisive: () -> Bool) throws -> ChangeWaiter.Wake {
        timeouts.append(timeout)
        return steps.isEmpty ? .signal : steps.removeFirst()(timeout)
    }
}

/// Keeps what the loop delivered; any signal stops it.
final class RecordingHandler: WatchHandler {
    private(set) var records: [WatchRecord] = []
    private(set) var checks: [(reported: Report, counters: WatchCounters)] = []
    let clock: ScriptedClock
    /// The boot-time moment each record was delivered at.
    private(set) var deliveredAt: [Duration] = []
    init(clock: ScriptedClock) { self.clock = clock }
    func deliver(_ record: WatchRecord) -> Bool {
        records.append(record)
        deliveredAt.append(clock.now().boottime)
        return true
    }
    /// The heartbeats and the stop record, with the boot-time moment each was written.
    private(set) var written: [(record: WatchRecord, at: Duration)] = []
    func write(_ record: WatchRecord) -> Bool {
        written.append((record, clock.now().boottime))
        return true
    }
    func checked(reported: Report, counters: WatchCounters) { checks.append((reported, counters)) }
    func signalArrived() -> WatchSignalAction { .stop }
    /// Each failed check's error and the back-off it was given.
    private(set) var failures: [(error: CheckError, retryIn: Duration)] = []
    func checkFailed(_ error: CheckError, retryIn: Duration) { failures.append((error, retryIn)) }
    var summary: [String] { records.map { "\($0.event.rawValue) \($0.report.verdict.rawValue) \($0.trigger.rawValue)" } }
    var writtenSummary: [String] { written.map { "\($0.record.event.rawValue) \($0.record.report.verdict.rawValue)" } }
}

/// The watch loop in-process: a scripted kernel view, network, clock and wake-ups.
@Suite struct WatchLoopTests {
    /// A step that lets the timer the loop set run out.
    static func timer(_ clock: ScriptedClock) -> (Duration?) -> ChangeWaiter.Wake {
        { timeout in
            clock.advance(timeout ?? .zero)
            return .timer
        }
    }

    static func loop(_ paths: ScriptedPaths, _ runner: ScriptedRunner, _ events: ScriptedWatchEvents, _ clock: ScriptedClock,
                     hold: Duration, interval: Duration = .seconds(300), capportURL: String? = nil,
                     jitter: Jitter = .off) -> (WatchLoop, RecordingHandler) {
        let handler = RecordingHandler(clock: clock)
        let loop = WatchLoop(checker: Checker(source: paths, makeRunner: { runner }), events: events,
                             options: Kit.options(capportURL: capportURL), settings: WatchSettings(interval: interval, hold: hold),
                             clock: clock, jitter: jitter, handler: handler)
        return (loop, handler)
    }

    @Test func theStartRecordSaysWhyAndEveryCheckIsCounted() throws {
        let clock = ScriptedClock()
        let events = ScriptedWatchEvents([Self.timer(clock), Self.timer(clock)])
        let (loop, handler) = Self.loop(ScriptedPaths(Kit.dualStack), ScriptedRunner { _, _ in Kit.ok(2) }, events, clock, hold: .seconds(3))
        try loop.run()
        #expect(handler.summary == ["start online start"])
        #expect(handler.checks.map(\.counters.checks) == [1, 2, 3])
        #expect(handler.checks.last?.counters.changes == 0)
        // Online: the interval timer, unjittered.
        #expect(events.timeouts.prefix(2).allSatisfy { $0 == .seconds(300) })
        // Every probe has its bytes series, even those let go.
        #expect(handler.checks.last?.counters.bytesByProbe.keys.sorted() == ["a", "b", "c", "d", "s"])
    }

    @Test func aFlapShorterThanTheHoldReportsNothing() throws {
        let clock = ScriptedClock()
        let paths = ScriptedPaths(Kit.dualStack)
        let events = ScriptedWatchEvents([
            { _ in
                clock.advance(.milliseconds(200))
                paths.current = Kit.noRoute
                return .pathChanged
            },
            { _ in
                clock.advance(.milliseconds(200))
                paths.current = Kit.dualStack
                return .pathChanged
            },
            Self.timer(clock),
        ])
        let (loop, handler) = Self.loop(paths, ScriptedRunner { _, _ in Kit.ok(2) }, events, clock, hold: .seconds(3))
        try loop.run()
        #expect(handler.summary == ["start online start"])
        // While the loss was held, the loop meant to look again within a second.
        #expect(events.timeouts[1] == .seconds(1))
        #expect(events.timeouts[2] == .seconds(300))
    }

    @Test func anOutageThatLastsIsReportedOnceAfterTheHoldConfirmedByRechecks() throws {
        let clock = ScriptedClock()
        let paths = ScriptedPaths(Kit.dualStack)
        var steps: [(Duration?) -> ChangeWaiter.Wake] = [{ _ in
            clock.advance(.seconds(10))
            paths.current = Kit.noRoute
            return .pathChanged
        }]
        steps += Array(repeating: Self.timer(clock), count: 4)
        let events = ScriptedWatchEvents(steps)
        let (loop, handler) = Self.loop(paths, ScriptedRunner { _, _ in Kit.ok(2) }, events, clock, hold: .seconds(3))
        try loop.run()
        #expect(handler.summary == ["start online start", "change offline link"])
        // Seen at 1010 s, confirmed at 1011 and 1012, reported at 1013: exactly the hold.
        #expect(handler.deliveredAt == [.seconds(1000), .seconds(1013)])
        #expect(events.timeouts[1...3] == [.seconds(1), .seconds(1), .seconds(1)])
        #expect(handler.checks.last?.counters.changes == 1)
        // Before the hold ended, the reported state (the textfile's) stayed online.
        #expect(handler.checks[2].reported.verdict == .online && handler.checks.last?.reported.verdict == .offline)
    }

    @Test func holdZeroReportsAtOnce() throws {
        let clock = ScriptedClock()
        let paths = ScriptedPaths(Kit.dualStack)
        let events = ScriptedWatchEvents([{ _ in
            paths.current = Kit.noRoute
            return .pathChanged
        }, { _ in .resolverChanged }])
        let (loop, handler) = Self.loop(paths, ScriptedRunner { _, _ in Kit.ok(2) }, events, clock, hold: .zero)
        try loop.run()
        #expect(handler.summary == ["start online start", "change offline link"])
        // Not online: the back-off (1 s first), and resolv.conf's change is its own trigger.
        #expect(events.timeouts[1] == .seconds(1))
    }

    @Test func aSuspendIsNoticedAndRecheckedAtOnceButAWallClockJumpIsNot() throws {
        let clock = ScriptedClock()
        let paths = ScriptedPaths(Kit.dualStack)
        let events = ScriptedWatchEvents([
            // The wall clock is set: nothing to check, the wait goes on.
            { _ in .clockJumped },
            // Suspended for an hour; the network is another one after it.
            { _ in
                clock.advance(.seconds(5))
                clock.suspend(for: .seconds(3600))
                paths.current = Kit.noRoute
                return .clockJumped
            },
        ])
        let (loop, handler) = Self.loop(paths, ScriptedRunner { _, _ in Kit.ok(2) }, events, clock, hold: .zero)
        try loop.run()
        #expect(handler.summary == ["start online start", "change offline resume"])
        #expect(handler.checks.count == 2)
        // The second wait asked for what was left of the first one's timer.
        #expect(events.timeouts[0] == .seconds(300) && events.timeouts[1] == .seconds(300))
    }

    @Test func aPortalSessionIsWarnedOfOnceThenItsEndIsCheckedAtOnce() throws {
        let clock = ScriptedClock()
        let end = Duration.seconds(1100)  // the session has 100 s left at the start
        let runner = ScriptedRunner { name, _ in
            guard name == "#capport" else { return Kit.ok(2) }
            let left = max(end - clock.now().boottime, .zero).components.seconds
            let body = left > 0 ? #"{"captive": false, "seconds-remaining": \#(left)}"# : #"{"captive": true, "user-portal-url": "https://login.example/"}"#
            return ScriptedRunner.Answer(at: .milliseconds(3), status: 200, body: body, headers: [("content-type", "application/captive+json")])
        }
        let events = ScriptedWatchEvents([Self.timer(clock), Self.timer(clock), Self.timer(clock)])
        // --hold 0: the portal is reported by the check at the end (with a hold, that long after it).
        let (loop, handler) = Self.loop(ScriptedPaths(Kit.dualStack), runner, events, clock, hold: .zero,
                                        interval: .seconds(600), capportURL: "https://capport.example/api")
        try loop.run()
        #expect(handler.summary == ["start online start", "expiring online expiry", "change portal expiry"], "\(handler.summary)")
        // A tenth of the 100 s session before its end; then 250 ms after it, long before --interval.
        #expect(events.timeouts[0] == .seconds(90))
        #expect(events.timeouts[1] == .seconds(10) + .milliseconds(250))
        #expect(handler.deliveredAt == [.seconds(1000), .seconds(1090), end + .milliseconds(250)])
        let start = try #require(handler.records.first)
        #expect(start.report.portalSessionEnd != nil && start.json.contains(#""expires_at":""#))
        #expect(handler.records[1].environment["NETPROBE_TRIGGER"] == "expiry")
        #expect(handler.records[1].environment["NETPROBE_EVENT"] == "expiring")
        #expect(handler.checks[1].counters.sessionEnd != nil && handler.checks[2].counters.sessionEnd == nil)
    }

    @Test func aSessionTheAPIExtendsIsNoAlarm() throws {
        let clock = ScriptedClock()
        var end = Duration.seconds(1100)
        let runner = ScriptedRunner { name, _ in
            guard name == "#capport" else { return Kit.ok(2) }
            let left = max(end - clock.now().boottime, .zero).components.seconds
            return ScriptedRunner.Answer(at: .milliseconds(3), status: 200, body: #"{"captive": false, "seconds-remaining": \#(left)}"#,
                                         headers: [("content-type", "application/captive+json")])
        }
        let events = ScriptedWatchEvents([{ timeout in
            end = .seconds(2000)  // the user extended the session before the warning
            clock.advance(timeout ?? .zero)
            return .timer
        }])
        let (loop, handler) = Self.loop(ScriptedPaths(Kit.dualStack), runner, events, clock, hold: .seconds(3),
                                        interval: .seconds(6000), capportURL: "https://capport.example/api")
        try loop.run()
        #expect(handler.summary == ["start online start"])
        // The new session's warning: 60 s before its end (it is longer than ten minutes).
        #expect(events.timeouts[1] == .seconds(2000 - 1090 - 60))
    }

    @Test func jitterSpreadsDelaysByAtMostATenthAndASeedRepeatsThem() {
        var seeded = Jitter(generator: SeededGenerator(seed: 7))
        let delays = (0..<200).map { _ in seeded.spread(.seconds(10)) }
        #expect(delays.allSatisfy { $0 >= .seconds(9) && $0 <= .seconds(11) })
        #expect(Set(delays).count > 100, "spread, not one value")
        var again = Jitter(generator: SeededGenerator(seed: 7))
        #expect((0..<200).map { _ in again.spread(.seconds(10)) } == delays)
        var off = Jitter.off
        #expect(off.spread(.seconds(10)) == .seconds(10))
    }
}

extension WatchLoopTests {
    /// An outage whose reason changes from check to check (an unreachable gateway gives timeouts,
    /// then refusals) has still held: it is reported with the latest reason.
    @Test func anOutageWhoseReasonMovesIsStillReportedAfterTheHold() throws {
        let clock = ScriptedClock()
        var healthy = true, refusing = false
        let runner = ScriptedRunner { _, _ in
            if healthy { return Kit.ok(2) }
            return refusing ? ScriptedRunner.Answer(at: .milliseconds(1), status: nil, error: .refused) : nil
        }
        var steps: [(Duration?) -> ChangeWaiter.Wake] = [{ _ in
            healthy = false
            clock.advance(.seconds(5))
            return .pathChanged
        }]
        steps += Array(repeating: { timeout in
            refusing.toggle()
            clock.advance(timeout ?? .zero)
            return .timer
        }, count: 3)
        let events = ScriptedWatchEvents(steps)
        let (loop, handler) = Self.loop(ScriptedPaths(Kit.dualStack), runner, events, clock, hold: .seconds(3))
        try loop.run()
        #expect(handler.summary == ["start online start", "change offline link"])
        #expect(handler.records.last?.report.reason == .connectFailed)
        #expect(handler.deliveredAt.last == .seconds(1008))
    }
}

extension WatchLoopTests {
    /// An online network where nothing happens, a 900 s heartbeat, `timers` timers run out, then SIGTERM.
    static func quietWatch(interval: Duration, timers: Int) throws -> (ScriptedWatchEvents, RecordingHandler) {
        let clock = ScriptedClock()
        let events = ScriptedWatchEvents(Array(repeating: Self.timer(clock), count: timers))
        let handler = RecordingHandler(clock: clock)
        let loop = WatchLoop(checker: Checker(source: ScriptedPaths(Kit.dualStack), makeRunner: { ScriptedRunner { _, _ in Kit.ok(2) } }),
                             events: events, options: Kit.options(),
                             settings: WatchSettings(interval: interval, hold: .seconds(3), heartbeat: .seconds(900)),
                             clock: clock, jitter: .off, handler: handler)
        try loop.run()
        return (events, handler)
    }

    /// Online with the default --interval: the heartbeat rides on the check before it would fall
    /// due, so it costs no wake-up of its own; the end writes a stop record.
    @Test func aQuietWatchWritesItsHeartbeatWithTheChecksAndAStopAtTheEnd() throws {
        let (events, handler) = try Self.quietWatch(interval: .seconds(300), timers: 5)
        #expect(handler.summary == ["start online start"])
        #expect(handler.writtenSummary == ["alive online", "alive online", "stop online"])
        // Checks at 1000, 1300 ... 2500: the heartbeat with the check at 1600 (the next, at 1900, would
        // be late), again at 2200; the stop when the script ends at 2500.
        #expect(handler.written.map(\.at) == [.seconds(1600), .seconds(2200), .seconds(2500)])
        #expect(events.timeouts.allSatisfy { $0 == .seconds(300) }, "no wake-up for the heartbeat alone: \(events.timeouts)")
        let alive = try #require(handler.written.first?.record)
        #expect(alive.trigger == .interval && alive.heartbeat == .seconds(900) && alive.previous == nil)
        #expect(alive.json.contains(#""event":"alive","heartbeat_seconds":900,"#))
        #expect(handler.records.first?.heartbeat == .seconds(900))
        #expect(handler.written.last?.record.trigger == .signal)
    }

    /// --interval longer than the heartbeat: the heartbeat has its own timer, and no check runs for it.
    @Test func aHeartbeatShorterThanTheIntervalWakesAloneAndChecksNothing() throws {
        let (events, handler) = try Self.quietWatch(interval: .seconds(3600), timers: 3)
        #expect(handler.checks.count == 1)
        #expect(handler.written.map(\.at) == [.seconds(1900), .seconds(2800), .seconds(3700), .seconds(3700)])
        #expect(handler.writtenSummary == ["alive online", "alive online", "alive online", "stop online"])
        #expect(events.timeouts == [.seconds(900), .seconds(900), .seconds(900), .seconds(900)])
    }

    /// A stop while a new state is held: the stop repeats the state reported, not the one held.
    @Test func theStopRecordCarriesTheReportedStateNotTheOneBeingHeld() throws {
        let clock = ScriptedClock()
        let paths = ScriptedPaths(Kit.dualStack)
        let events = ScriptedWatchEvents([{ _ in
            clock.advance(.seconds(10))
            paths.current = Kit.noRoute
            return .pathChanged
        }])
        let (loop, handler) = Self.loop(paths, ScriptedRunner { _, _ in Kit.ok(2) }, events, clock, hold: .seconds(3))
        try loop.run()
        #expect(handler.summary == ["start online start"])
        #expect(handler.writtenSummary == ["stop online"])
        let stop = try #require(handler.written.last?.record)
        #expect(stop.text.hasSuffix(" stop online probes-validated"))
        #expect(stop.heartbeat == nil && stop.json.contains(#""heartbeat_seconds":null"#))
    }
}

extension WatchLoopTests {
    /// The API's answer to a check at `now` for a session ending at `end`: not captive with the
    /// seconds left, or (`silent`) a 503 the check counts as no answer.
    static func sessionAPI(_ clock: ScriptedClock, end: Duration, silent: @escaping (Duration) -> Bool) -> ScriptedRunner {
        ScriptedRunner { name, _ in
            guard name == "#capport" else { return Kit.ok(2) }
            let now = clock.now().boottime
            if silent(now) { return ScriptedRunner.Answer(at: .milliseconds(3), status: 503) }
            let left = max(end - now, .zero).components.seconds
            return ScriptedRunner.Answer(at: .milliseconds(3), status: 200, body: #"{"captive": false, "seconds-remaining": \#(left)}"#,
                                         headers: [("content-type", "application/captive+json")])
        }
    }

    /// Warned once; the API then fails a check (a SIGHUP re-check) and answers again with the
    /// same end: the session is the same one, not warned of (nor its hook run) a second time.
    @Test func oneWarningPerSessionWhateverTheAPIDoesInBetween() throws {
        let clock = ScriptedClock()
        let end = Duration.seconds(1100)
        var silentAt: Set<Duration> = []
        let runner = Self.sessionAPI(clock, end: end) { silentAt.contains($0) }
        let events = ScriptedWatchEvents([
            Self.timer(clock),  // the warning at 1090
            { _ in  // a resolver change at 1092: the API does not answer that check
                clock.advance(.seconds(2))
                silentAt.insert(clock.now().boottime)
                return .resolverChanged
            },
            { _ in  // another at 1094: the API answers again, the same end
                clock.advance(.seconds(2))
                return .resolverChanged
            },
            Self.timer(clock),  // the check right after the end
        ])
        let (loop, handler) = Self.loop(ScriptedPaths(Kit.dualStack), runner, events, clock, hold: .zero,
                                        interval: .seconds(600), capportURL: "https://capport.example/api")
        try loop.run()
        #expect(handler.summary == ["start online start", "expiring online expiry"], "\(handler.summary)")
        #expect(handler.checks.count == 5)
        // The silent check kept the session: its end checks were still due, not a new warning.
        #expect(events.timeouts[3] == end + .milliseconds(250) - .seconds(1094))
    }

    /// --hold 3: the warning's check finds the network failing (a candidate being held); the
    /// expiring record tells of the state reported, online, stamped with that check's start.
    @Test func anExpiringRecordReportsTheHeldStateNotTheCandidate() throws {
        let clock = ScriptedClock()
        let end = Duration.seconds(1100)
        var probesFail = false
        let api = Self.sessionAPI(clock, end: end) { _ in false }
        let runner = ScriptedRunner { name, request in
            name == "#capport" || !probesFail ? api.script(name, request) : nil
        }
        let events = ScriptedWatchEvents([{ timeout in
            probesFail = true
            clock.advance(timeout ?? .zero)
            return .timer
        }])
        let (loop, handler) = Self.loop(ScriptedPaths(Kit.dualStack), runner, events, clock, hold: .seconds(3),
                                        interval: .seconds(600), capportURL: "https://capport.example/api")
        try loop.run()
        #expect(handler.summary == ["start online start", "expiring online expiry"], "\(handler.summary)")
        let expiring = try #require(handler.records.last)
        #expect(expiring.report.verdict == .online && expiring.report.reason == .probesValidated)
        #expect(expiring.timestamp > handler.records[0].timestamp)
        #expect(expiring.environment["NETPROBE_PORTAL_EXPIRES_AT"] != "")
        #expect(expiring.text.contains(" expiring online probes-validated session ends "))
    }

    /// HTTPS to the probe operators starts failing while plain HTTP validates: `partial` alone changed.
    @Test func aChangeOfPartialAloneIsARecord() throws {
        let clock = ScriptedClock()
        var httpsFails = false
        let runner = ScriptedRunner { name, _ in
            name == "s" && httpsFails ? ScriptedRunner.Answer(at: .milliseconds(2), status: nil, error: .refused) : Kit.ok(2)
        }
        let events = ScriptedWatchEvents([{ timeout in
            httpsFails = true
            clock.advance(timeout ?? .zero)
            return .timer
        }, { timeout in
            httpsFails = false
            clock.advance(timeout ?? .zero)
            return .timer
        }])
        let (loop, handler) = Self.loop(ScriptedPaths(Kit.dualStack), runner, events, clock, hold: .zero)
        try loop.run()
        #expect(handler.summary == ["start online start", "change online interval", "change online interval"], "\(handler.summary)")
        #expect(handler.records.map(\.changed) == [[], ["partial"], ["partial"]])
        #expect(handler.records[1].report.partial == true && handler.records[1].text.contains(" online probes-validated partial (was online"))
    }
}
