#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import NetprobeWire
import NetprobeVerdict
import NetprobeOutput
import NetprobeSystem
import NetprobeNetwork
import NetprobeCheck
@testable import NetprobeWatch
import Glibc
import Testing

/// A kernel whose dumps are interrupted (NLE_DUMP_INTR) `interruptions` times in a row before
/// they answer, read through the real reader's retry: a container starting during every check.
final class InterruptedPaths: PathSource {
    var interruptions: Int
    let current: PathSnapshot
    private(set) var dumps = 0
    init(_ current: PathSnapshot, interruptions: Int) {
        self.current = current
        self.interruptions = interruptions
    }
    func snapshot() throws(CheckError) -> PathSnapshot {
        do {
            return try PathReader.retryingInterruptedDumps { () throws(NetlinkError) -> PathSnapshot in
                dumps += 1
                if interruptions > 0 {
                    interruptions -= 1
                    throw NetlinkError(code: -NetlinkError.dumpInterrupted, operation: "rtnl_route_alloc_cache")
                }
                return current
            }
        } catch {
            throw .netlink(error.description)
        }
    }
}

/// A clock whose boot id is known: records carry it.
final class BootClock: WatchClock {
    let inner = ScriptedClock()
    var wall = Date(timeIntervalSince1970: 1_800_000_000)
    func now() -> ClockReading { inner.now() }
    func wallNow() -> Date { wall }
    var bootID: String? { "2f9c8a57-1c1e-4f27-9d0c-7a6f1b2e3d4c" }
}

/// watch is never gone for a check that failed, and its records say what a reader needs to
/// tell a sleep or a stepped clock from time that passed.
@Suite struct WatchLoopResilienceTests {
    /// An interrupted dump is read again; one interrupted at every attempt fails that check
    /// only: watch says so, tries again on the back-off's pace, and goes on.
    @Test func anInterruptedDumpIsRetriedAndAFailedCheckIsNoExit() throws {
        let clock = ScriptedClock()
        // Two checks fail (five interrupted dumps each), the third reads on its fourth attempt.
        let paths = InterruptedPaths(Kit.dualStack, interruptions: 2 * PathReader.attempts + 3)
        let events = ScriptedWatchEvents([WatchLoopTests.timer(clock), WatchLoopTests.timer(clock), WatchLoopTests.timer(clock)])
        let handler = RecordingHandler(clock: clock)
        let loop = WatchLoop(checker: Checker(source: paths, makeRunner: { ScriptedRunner { _, _ in Kit.ok(2) } }), events: events,
                             options: Kit.options(), settings: WatchSettings(interval: .seconds(300), hold: .zero, heartbeat: .seconds(900)),
                             clock: clock, jitter: .off, handler: handler)
        try loop.run()
        #expect(handler.failures.count == 2)
        #expect(handler.failures.allSatisfy { $0.error.description.contains("rtnl_route_alloc_cache") })
        #expect(handler.failures.map(\.retryIn) == [.seconds(1), .seconds(2)], "the back-off's pace")
        // Five and five interrupted, four to read the third; one for the check after it.
        #expect(paths.dumps == 2 * PathReader.attempts + 4 + 1)
        #expect(handler.summary == ["start online start"], "the first check that succeeds is still the start")
        #expect(handler.checks.count == 2, "the third attempt and the timer's check after it")
        // No heartbeat while nothing was reported; the stop at the end.
        #expect(handler.writtenSummary == ["stop online"])
        #expect(events.timeouts.prefix(2) == [.seconds(1), .seconds(2)])
    }

    /// A check that fails after a state was reported: watch goes on, no heartbeat claims the
    /// state meanwhile, and the stop record still ends the log.
    @Test func aFailureAfterTheStartKeepsWatchRunningAndTheStopIsWritten() throws {
        let clock = ScriptedClock()
        let paths = InterruptedPaths(Kit.dualStack, interruptions: 0)
        let events = ScriptedWatchEvents([
            { timeout in
                clock.advance(timeout ?? .zero)
                paths.interruptions = PathReader.attempts  // the next check fails
                return .timer
            },
            WatchLoopTests.timer(clock),
        ])
        let handler = RecordingHandler(clock: clock)
        let loop = WatchLoop(checker: Checker(source: paths, makeRunner: { ScriptedRunner { _, _ in Kit.ok(2) } }), events: events,
                             options: Kit.options(), settings: WatchSettings(interval: .seconds(300), hold: .zero, heartbeat: .seconds(900)),
                             clock: clock, jitter: .off, handler: handler)
        try loop.run()
        #expect(handler.failures.count == 1)
        #expect(handler.checks.count == 2)
        #expect(handler.writtenSummary == ["stop online"], "no heartbeat claimed the state while its check failed")
    }

    /// Stopped while its checks fail: the stop claims the state only up to the last check that
    /// proved it, stamped with that check's clocks.
    @Test func aStopAfterAFailedCheckClaimsNoMoreThanTheLastGoodCheck() throws {
        let clock = ScriptedClock()
        let paths = InterruptedPaths(Kit.dualStack, interruptions: 0)
        let events = ScriptedWatchEvents([{ timeout in
            clock.advance(timeout ?? .zero)
            paths.interruptions = 100  // every check from now on fails
            return .timer
        }])
        let handler = RecordingHandler(clock: clock)
        let loop = WatchLoop(checker: Checker(source: paths, makeRunner: { ScriptedRunner { _, _ in Kit.ok(2) } }), events: events,
                             options: Kit.options(), settings: WatchSettings(interval: .seconds(300), hold: .zero, heartbeat: .seconds(900)),
                             clock: clock, jitter: .off, handler: handler)
        try loop.run()
        #expect(handler.failures.count == 1 && handler.checks.count == 1)
        let stop = try #require(handler.written.last?.record)
        #expect(stop.event == .stop)
        #expect(stop.clock?.reading == ClockReading(monotonic: .seconds(1000), boottime: .seconds(1000)), "the start's check, not the failed one at 1300")
        #expect(stop.timestamp == handler.records.first?.report.timestamp)
    }

    /// What ends watch for good (poll(2) failing) still leaves the stop record before the error.
    @Test func anEndByErrorWritesTheStopFirst() throws {
        final class FailingEvents: WatchEvents {
            func beginCheck() {}
            func next(within timeout: Duration?, decisive: () -> Bool) throws -> ChangeWaiter.Wake { throw PollError(code: EINVAL) }
        }
        let clock = ScriptedClock()
        let handler = RecordingHandler(clock: clock)
        let loop = WatchLoop(checker: Checker(source: ScriptedPaths(Kit.dualStack), makeRunner: { ScriptedRunner { _, _ in Kit.ok(2) } }),
                             events: FailingEvents(), options: Kit.options(), settings: WatchSettings(interval: .seconds(300), hold: .zero),
                             clock: clock, jitter: .off, handler: handler)
        #expect(throws: PollError.self) { try loop.run() }
        #expect(handler.summary == ["start online start"])
        #expect(handler.writtenSummary == ["stop online"])
    }

    /// A quiet online network, a 900 s heartbeat, the script's wake-ups, then SIGTERM.
    static func run(_ clock: BootClock, _ events: ScriptedWatchEvents) throws -> RecordingHandler {
        let handler = RecordingHandler(clock: clock.inner)
        let loop = WatchLoop(checker: Checker(source: ScriptedPaths(Kit.dualStack), makeRunner: { ScriptedRunner { _, _ in Kit.ok(2) } }),
                             events: events, options: Kit.options(),
                             settings: WatchSettings(interval: .seconds(300), hold: .zero, heartbeat: .seconds(900)),
                             clock: clock, jitter: .off, handler: handler)
        try loop.run()
        return handler
    }

    /// Every record carries the boot and both boot clocks of its moment: a check's record those
    /// of the check's start, a heartbeat or stop those of its writing.
    @Test func recordsCarryTheBootClocks() throws {
        let clock = BootClock()
        let events = ScriptedWatchEvents([{ _ in
            clock.inner.advance(.seconds(40))
            clock.inner.suspend(for: .seconds(3600))
            return .timer
        }])
        let handler = try Self.run(clock, events)
        let start = try #require(handler.records.first)
        #expect(start.clock == RecordClock(bootID: clock.bootID, reading: ClockReading(monotonic: .seconds(1000), boottime: .seconds(1000))))
        #expect(start.json.hasPrefix(#"{"boot_id":"2f9c8a57-1c1e-4f27-9d0c-7a6f1b2e3d4c","boottime_seconds":1000,"changed":[]"#))
        #expect(start.json.contains(#""heartbeat_seconds":900,"monotonic_seconds":1000,"previous":null"#))
        // The sleep: a check (trigger resume) that found the same state, so an alive record marks it.
        #expect(handler.writtenSummary == ["alive online", "stop online"])
        let resumed = try #require(handler.written.first?.record)
        #expect(resumed.trigger == .resume)
        #expect(resumed.clock?.reading == ClockReading(monotonic: .seconds(1040), boottime: .seconds(4640)))
        #expect(resumed.json.contains(#""boottime_seconds":4640,"#) && resumed.json.contains(#""monotonic_seconds":1040,"#))
    }

    /// A step of the wall clock checks nothing: an alive record (trigger clock) marks it.
    @Test func aClockStepIsMarkedByARecord() throws {
        let clock = BootClock()
        let events = ScriptedWatchEvents([{ _ in
            clock.inner.advance(.seconds(20))
            clock.wall += 3 * 86_400
            return .clockJumped
        }])
        let handler = try Self.run(clock, events)
        #expect(handler.checks.count == 1, "a step is no reason to check")
        #expect(handler.writtenSummary == ["alive online", "stop online"])
        let mark = try #require(handler.written.first?.record)
        #expect(mark.trigger == .clock && mark.timestamp == Date(timeIntervalSince1970: 1_800_000_000 + 3 * 86_400))
        #expect(mark.clock?.reading.monotonic == .seconds(1020))
    }
}
