import NetprobeWire
import NetprobeVerdict
import NetprobeOutput
import NetprobeReport
import NetprobeSystem
import NetprobeNetwork
import NetprobeCheck
import NetprobeWatch
import Testing

/// A kernel view the test changes between checks.
final class ScriptedPaths: PathSource {
    var current: PathSnapshot
    private(set) var reads = 0
    init(_ current: PathSnapshot) { self.current = current }
    func snapshot() throws(CheckError) -> PathSnapshot {
        reads += 1
        return current
    }
}

/// Change events on cue: each `next` runs the next step of the script (which may change the
/// kernel view or the network's answers) and reports what woke the loop. No sleeping.
final class ScriptedChanges: ChangeSource {
    var steps: [() -> ChangeWaiter.Wake]
    private(set) var checksBegun = 0
    private(set) var waits = 0
    private(set) var decisive: [Bool] = []
    init(_ steps: [() -> ChangeWaiter.Wake]) { self.steps = steps }
    func beginCheck() { checksBegun += 1 }
    func next(until timer: ContinuousClock.Instant?, decisive: () -> Bool) throws -> ChangeWaiter.Wake {
        waits += 1
        let wake = steps.isEmpty ? ChangeWaiter.Wake.timer : steps.removeFirst()()
        self.decisive.append(decisive())
        return wake
    }
}

/// The wait loop in-process: it re-checks on a change, returns the first online answer and
/// keeps the last complete verdict when the deadline cuts a check short.
@Suite struct WaitLoopTests {
    @Test func aRouteThatAppearsIsCheckedAtOnceAndEndsTheWait() throws {
        let paths = ScriptedPaths(Kit.noRoute)
        let runner = ScriptedRunner { _, _ in Kit.ok(2) }
        let changes = ScriptedChanges([{
            paths.current = Kit.dualStack
            return .pathChanged
        }])
        var shown: [Reason] = []
        let loop = WaitLoop(checker: Checker(source: paths, makeRunner: { runner }), changes: changes, options: Kit.options(),
                            deadline: .now + .seconds(60), progress: { shown.append($0.reason) })
        let report = try loop.run()
        #expect(report.verdict == .online && report.reason == .probesValidated)
        #expect(shown == [.noDefaultRoute])
        #expect(changes.waits == 1 && changes.checksBegun == 2 && paths.reads >= 2)
        // The change opened the path: the gate's answer moved, so it was worth a check at once.
        #expect(changes.decisive == [true])
        #expect(runner.rounds == 1)
    }

    @Test func aPortalStaysAPortalWhenTheDeadlineCutsTheNextCheckShort() throws {
        var portal = true
        let runner = ScriptedRunner { _, _ in
            portal ? ScriptedRunner.Answer(at: .milliseconds(2), status: 302, headers: [("location", "http://login.example/")]) : nil
        }
        // After the first check the network goes silent: every later check only times out.
        let changes = ScriptedChanges([{
            portal = false
            return .pathChanged
        }])
        let loop = WaitLoop(checker: Kit.checker(Kit.dualStack, runner), changes: changes, options: Kit.options(),
                            deadline: .now + .milliseconds(150))
        let report = try loop.run()
        #expect(report.verdict == .portal && report.portal?.url == "http://login.example/")
        #expect(runner.rounds >= 2)
    }

    @Test func aChangeThatCannotMoveTheGateIsNotDecisive() throws {
        let paths = ScriptedPaths(Kit.noRoute)
        let runner = ScriptedRunner { _, _ in Kit.ok(2) }
        let changes = ScriptedChanges([
            { .pathChanged },  // something changed, but there is still no route
            {
                paths.current = Kit.dualStack
                return .pathChanged
            },
        ])
        let loop = WaitLoop(checker: Checker(source: paths, makeRunner: { runner }), changes: changes, options: Kit.options(),
                            deadline: .now + .seconds(60))
        #expect(try loop.run().verdict == .online)
        #expect(changes.decisive == [false, true])
    }
}
