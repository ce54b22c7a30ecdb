#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import NetprobeWire
import NetprobeVerdict
import NetprobeNetwork

/// A watch's re-check on a network that full checks proved open (`NetworkMemory.provenOpen`):
/// plain HTTP to two operators drawn at random (`FirstWaves` of the plain-HTTP probes with a
/// quorum of one: two operators, one probe each), about 2 KB on the wire with their DNS,
/// where a full first wave costs about 5 KB. It can only confirm: when both answer exactly as
/// expected, the state full checks proved stands and nothing is recorded; any other answer,
/// or none within `patience`, and the full check runs at once, in the same check, before any
/// record. So a lean re-check never writes a verdict that no full check proved.
///
/// What it can miss: a portal that lets both drawn operators' hosts through. A portal that
/// lets one operator through is always found (the other is intercepted); one that lets two
/// through is found by a given lean re-check unless it drew exactly that pair, one in
/// `FirstWaves.count` (10 with the built-in set's five operators), and by a full check within
/// `NetworkMemory.leanWindow` whatever it lets through that a full check would catch.
/// A network with a Captive Portal API, and `--all-paths`, are always checked in full.
enum LeanRecheck {
    /// How long the two probes may take before the full check runs instead: an open network
    /// answers them in well under a second, and the full check still needs its time.
    static let patience: Duration = .seconds(2)

    /// The lean round's results when it confirmed what full checks proved; nil when it did
    /// not apply (not asked for, not proven, several paths) or did not confirm.
    static func run(_ plans: [PathPlan], options: CheckOptions, memory: NetworkMemory, at now: Date,
                    started: ContinuousClock.Instant, deadline: ContinuousClock.Instant,
                    runner: () throws(CheckError) -> any TransferRunner) throws(CheckError) -> [Round.PathResult]? {
        guard options.lean, !options.allPaths, plans.count == 1, let plan = plans.first, case .pass = plan.gate,
              plan.api == nil, let known = plan.known, memory.provenOpen(known.id, at: now),
              let lean = Self.plan(plan, draw: options.waveDraw) else { return nil }
        var round = Round([lean], quorum: lean.specs.count, started: started)
        let results = round.run(on: try runner(), deadline: min(deadline, ContinuousClock.now + patience))
        guard let result = results.first, confirms(result) else { return nil }
        return results
    }

    /// The path with only the two drawn probes (nil when the set has no two plain-HTTP
    /// operators): no canary, no API.
    static func plan(_ plan: PathPlan, draw: WaveDraw) -> PathPlan? {
        let waves = FirstWaves(plan.specs.filter { !$0.isHTTPS }, quorum: 1)
        guard waves.count > 0 else { return nil }
        let pair = Set(waves.wave(draw.pick(waves.count)).map(\.name))
        guard pair.count == 2 else { return nil }
        var lean = plan
        let kept = zip(plan.specs, plan.requests).filter { pair.contains($0.0.name) }
        lean.specs = kept.map(\.0)
        lean.requests = kept.map(\.1)
        lean.canary = nil
        lean.api = nil
        return lean
    }

    /// Both probes answered exactly as expected.
    static func confirms(_ result: Round.PathResult) -> Bool {
        let conclusion = result.conclusion
        return conclusion.verdict == .online && conclusion.reason == .probesValidated
            && result.findings.settled.count == result.plan.specs.count
            && result.findings.settled.allSatisfy { $0.outcome == .success }
    }

    /// The lean report's probes: every probe of the set, those not sent marked as not needed.
    static func complete(_ path: inout PathReport, config: ProbeConfig) {
        let sent = path.probes
        path.probes = config.probes.map { spec in sent.first { $0.spec.name == spec.name } ?? .skipped(spec, because: .decided) }
    }
}
