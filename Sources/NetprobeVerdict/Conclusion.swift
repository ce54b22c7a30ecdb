import NetprobeWire
/// Everything known about one path at one moment: what the kernel said (the gate), how each
/// probe was judged so far, which probes are still on their way, the Captive Portal API and
/// the `.invalid` canary. The check, wait and watch loops only gather this; they never decide.
public struct PathFindings: Sendable {
    public var quorum: Int
    public var gate: GateResult
    /// Judged probes, skipped ones included (they count for nothing).
    public var settled: [ProbeEvidence]
    /// Probes not yet judged: sent, or held back for a later wave (`WavePlan`), which may still
    /// be sent and so count as pending until the plan decides they never will be.
    public var pending: [ProbeSpec]
    /// The API's report when one is known: answered, failed, or never to be asked.
    public var capport: CapportReport?
    /// The API was asked and has not answered yet.
    public var capportPending: Bool
    public var canary: DNSCanaryReport?
    /// The canary was sent and has not answered yet.
    public var canaryPending: Bool
    /// The login URL a full check found on this network before (`NetworkMemory`): offered when
    /// the network names no page this time, never a reason for a verdict.
    public var rememberedPortalURL: String?

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
    /// Only on an online verdict: true when plain HTTP validated while HTTPS to the probe
    /// operators failed (`VerdictEngine.partial`).
    public var partial: Bool?
    /// When `partial` is true: which HTTPS probes failed and how.
    public var partialError: String?
    public var successOperators: Int
    public var portalOperators: Int
    /// Operators whose certificate-verified HTTPS probe answered correctly (counted in
    /// `successOperators` too). At the quorum, only plain-HTTP interception could still
    /// overturn an online verdict: the check loop gives silent plain HTTP a bounded grace.
    public var httpsOperators: Int
    public var quorum: Int
    /// A probe name led to an interception address, or the canary resolved.
    public var dnsHijack: Bool
    /// Correct answers came through a transparent proxy (`NetworkInsights.proxy`).
    public var proxy: Bool

    public init(verdict: Verdict, reason: Reason, isFinal: Bool = true, probesFinal: Bool = true, awaitsCanary: Bool = false,
                portal: PortalInfo? = nil,
                partial: Bool? = nil, partialError: String? = nil, successOperators: Int = 0, portalOperators: Int = 0,
                httpsOperators: Int = 0, quorum: Int, dnsHijack: Bool = false, proxy: Bool = false) {
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
        self.httpsOperators = httpsOperators
        self.quorum = quorum
        self.dnsHijack = dnsHijack
        self.proxy = proxy
    }
}
