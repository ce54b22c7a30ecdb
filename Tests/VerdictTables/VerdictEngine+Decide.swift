import NetprobeWire
import NetprobeVerdict

extension VerdictEngine {
    /// The probes' verdict with the API in a given state and no canary: for the tables here: the API report stands in for the one a check would have asked.
    public static func decide(quorum: Int, settled: [ProbeEvidence], pending: [ProbeSpec],
                              capport: CapportSignal = .absent) -> Conclusion {
        var findings = PathFindings(quorum: quorum, gate: .pass(families: [], interfaces: []), settled: settled, pending: pending)
        switch capport {
        case .absent: break
        case .pending: findings.capportPending = true
        case .settled(let captive):
            findings.capport = CapportReport(uri: "https://capport.invalid/", source: "option", state: captive ? .answered : .failed,
                                             answer: captive ? CapportAnswer(captive: true) : nil)
        }
        return conclude(findings)
    }
}
