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
import Testing

/// Lean re-checks inside watch: never the start, never while another state is being confirmed,
/// and what the checks taught handed to the command to keep.
@Suite struct WatchLeanTests {
    /// Keeps what was remembered, beside what `RecordingHandler` keeps.
    final class RememberingHandler: WatchHandler {
        let inner: RecordingHandler
        private(set) var remembered: [NetworkMemory] = []
        init(clock: ScriptedClock) { inner = RecordingHandler(clock: clock) }
        func deliver(_ record: WatchRecord) -> Bool { inner.deliver(record) }
        func write(_ record: WatchRecord) -> Bool { inner.write(record) }
        func checked(reported: Report, counters: WatchCounters) { inner.checked(reported: reported, counters: counters) }
        func signalArrived() -> WatchSignalAction { .stop }
        func checkFailed(_ error: CheckError, retryIn: Duration) { inner.checkFailed(error, retryIn: retryIn) }
        func remember(_ memory: NetworkMemory) { remembered.append(memory) }
    }

    /// A watch on `LeanRecheckTests.home`, whose checker already remembers it proven open (as
    /// a restart with its state directory does).
    static func run(_ network: LeanRecheckTests.Network, steps: (ScriptedClock) -> [(Duration?) -> ChangeWaiter.Wake])
        throws -> (RememberingHandler, [Bool]) {
        let clock = ScriptedClock()
        let runner = ScriptedRunner { name, _ in network.answer(name) }
        let warmed = Kit.checker(LeanRecheckTests.home, runner)
        for _ in 0..<NetworkMemory.openStreakForLean { _ = try warmed.run(LeanRecheckTests.options()) }
        let checker = Checker(source: ScriptedPaths(LeanRecheckTests.home), makeRunner: { runner })
        checker.networkMemory = warmed.networkMemory
        let handler = RememberingHandler(clock: clock)
        let loop = WatchLoop(checker: checker, events: ScriptedWatchEvents(steps(clock)), options: LeanRecheckTests.options(),
                             settings: WatchSettings(interval: .seconds(300), hold: .seconds(3)), clock: clock, jitter: .off,
                             handler: handler)
        try loop.run()
        let counts = handler.inner.checks.map(\.counters.leanChecks)
        // Whether each check was lean: its lean counter moved.
        return (handler, zip(counts, [0] + counts).map { $0 > $1 })
    }

    @Test func theStartIsFullAndTheReChecksAfterItLean() throws {
        let (handler, lean) = try Self.run(LeanRecheckTests.Network()) { clock in
            Array(repeating: WatchLoopTests.timer(clock), count: 3)
        }
        #expect(lean == [false, true, true, true])
        #expect(handler.inner.summary == ["start online start"])
        // Every check taught something (at least when the network was seen): handed on to be kept.
        #expect(handler.remembered.count == 4)
        #expect(handler.remembered.last?.entries.last?.openStreak == 3)
    }

    /// A portal found by a lean re-check's surprise is held for confirmation: the checks that
    /// confirm it are full, and so is every check until a full one proves the network open again.
    @Test func aStateBeingConfirmedIsNeverReCheckedLean() throws {
        let network = LeanRecheckTests.Network()
        let (handler, lean) = try Self.run(network) { clock in
            [WatchLoopTests.timer(clock),
             { timeout in
                network.letThrough = []
                clock.advance(timeout ?? .zero)
                return .timer
             }] + Array(repeating: WatchLoopTests.timer(clock), count: 4) + [{ timeout in
                network.letThrough = nil
                clock.advance(timeout ?? .zero)
                return .timer
             }] + Array(repeating: WatchLoopTests.timer(clock), count: 8)
        }
        #expect(handler.inner.summary == ["start online start", "change portal interval", "change online retry"])
        // start, lean, the portal (lean pair surprised: full), held and confirmed by full checks,
        // then online again by full checks until two in a row proved it, then lean.
        #expect(lean.first == false && lean[1] == true && lean[2] == false)
        let afterPortal = Array(lean[2...])
        let firstLean = try #require(afterPortal.firstIndex(of: true))
        #expect(afterPortal[..<firstLean].allSatisfy { !$0 })
        #expect(firstLean >= 4, "\(lean)")
    }
}
