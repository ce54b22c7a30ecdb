/// Everything known about one path at one moment: what the kernel said (the gate), how each
/// probe was judged so far, which probes are still on their way, the Captive Portal API and
/// the `.invalid` canary. The check, wait and watch loops only gather this; they never decide.
public struct PathFindings: Sendable {
    public var quorum: Int
    public var gate: GateResult
    /// Judged probes, skipped ones included (they count for nothing).
    public var settled: [ProbeEvidence]
    /// Probes sent and not yet judged.
    public var pending: [ProbeSpec]
    /// The API's report when one is known: answered, failed, or never to be asked.
    public var capport: CapportReport?
    /// The API was asked and has not answered yet.
    public var capportPending: Bool
    public var canary: DNSCanaryReport?
    /// The canary was sent and has not answered yet.
    public var canaryPending: Bool

    public init(quorum: Int, gate: GateResult, settled: [ProbeEvidence] = [], pending: [ProbeSpec] = [],
                capport: CapportReport? = nil, capportPending: Bool = false, canary: DNSCanaryReport? = nil,
                canaryPending: Bool = false) {
        self.quorum = quorum
        self.gate = gate
        self.settled = settled
        self.pending = pending
        self.capport = capport
        self.capportPending = capportPending
        self.canary = canary
        self.canaryPending = canaryPending
    }
}

/// A path's whole answer. Made only by `VerdictEngine.conclude`; nothing edits it afterwards.
public struct Conclusion: Sendable, Equatable {
    public var verdict: Verdict
    public var reason: Reason
    /// Nothing pending can change the verdict or the reason any more: no probe, no API
    /// answer, and no canary answer (see `awaitsCanary`).
    public var isFinal: Bool
    /// The probes alone can no longer change the verdict (the API or the canary may still be awaited).
    public var probesFinal: Bool
    /// The canary has not answered and its answer would change the reason: a portal seen only
    /// as wrong content is `dns-hijack` if the canary resolves. Such a conclusion is not final,
    /// so the reason does not depend on whether the probes or the canary answered first; the
    /// check loop waits for the canary a short bounded grace only.
    public var awaitsCanary: Bool
    public var portal: PortalInfo?
    /// Only on an online verdict: true when an HTTPS probe failed while HTTP validated.
    public var partial: Bool?
    /// When `partial` is true: which HTTPS probe failed and how.
    public var partialError: String?
    public var successOperators: Int
    public var portalOperators: Int
    public var quorum: Int
    /// A probe name led to an interception address, or the canary resolved.
    public var dnsHijack: Bool
    /// Correct answers came through a transparent proxy (`NetworkInsights.proxy`).
    public var proxy: Bool

    public init(verdict: Verdict, reason: Reason, isFinal: Bool = true, probesFinal: Bool = true, awaitsCanary: Bool = false,
                portal: PortalInfo? = nil,
                partial: Bool? = nil, partialError: String? = nil, successOperators: Int = 0, portalOperators: Int = 0,
                quorum: Int, dnsHijack: Bool = false, proxy: Bool = false) {
        self.verdict = verdict
        self.reason = reason
        self.isFinal = isFinal
        self.probesFinal = probesFinal
        self.awaitsCanary = awaitsCanary
        self.portal = portal
        self.partial = partial
        self.partialError = partialError
        self.successOperators = successOperators
        self.portalOperators = portalOperators
        self.quorum = quorum
        self.dnsHijack = dnsHijack
        self.proxy = proxy
    }
}

extension VerdictEngine {
    /// The one place a path's verdict is decided: gate, evidence, pending probes, API and canary
    /// in; verdict, reason, finality, portal, partial flag and counts out.
    public static func conclude(_ findings: PathFindings) -> Conclusion {
        if case .offline(let reason) = findings.gate {
            return Conclusion(verdict: .offline, reason: reason, quorum: findings.quorum)
        }
        let answered = findings.settled.filter { $0.outcome != .skipped }
        let tally = ProbeTally(quorum: findings.quorum, answered: answered, pending: findings.pending)
        let captive = !findings.capportPending && findings.capport?.state == .answered && findings.capport?.answer?.captive == true
        let canaryResolved = findings.canary?.resolved == true
        // Finality is judged on the probes alone, so the reason does not depend on whether the API
        // or the probes answered first; a captive API changes the verdict, never the waiting.
        let verdict = captive ? .portal : tally.verdict
        let reason: Reason
        switch verdict {
        case .online:
            reason = .probesValidated
        case .portal:
            reason = portalReason(answered: answered, captive: captive, canaryResolved: canaryResolved)
        case .offline:
            if findings.settled.isEmpty && findings.pending.isEmpty {
                reason = .noProbes
            } else if tally.successOperators > 0 {
                reason = .quorumNotMet
            } else {
                reason = dominantFailure(answered.filter { $0.outcome == .failure })
            }
        }
        // "HTTP works, HTTPS does not" describes an online path; behind a portal or offline it says nothing.
        let partial = verdict == .online ? partial(answered) : nil
        // Only wrong-content can still become dns-hijack by the canary's answer; a stronger
        // portal reason, or another verdict, is what it is whatever the canary says.
        let awaitsCanary = findings.canaryPending && reason == .wrongContent
        return Conclusion(
            verdict: verdict, reason: reason,
            isFinal: tally.isFinal && !findings.capportPending && !awaitsCanary, probesFinal: tally.isFinal,
            awaitsCanary: awaitsCanary,
            portal: verdict == .portal ? PortalLocator.locate(findings.settled, capport: findings.capport) : nil,
            partial: partial, partialError: NetworkInsights.partialError(answered, partial: partial),
            successOperators: tally.successOperators, portalOperators: tally.portalOperators, quorum: findings.quorum,
            dnsHijack: NetworkInsights.dnsHijack(answered) || canaryResolved,
            proxy: NetworkInsights.proxy(answered))
    }

    /// The probes' verdict with the API in a given state and no canary: for tables and tests.
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
