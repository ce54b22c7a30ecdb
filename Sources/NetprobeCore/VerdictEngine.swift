/// The verdict engine: a pure function from the evidence so far to a verdict,
/// which also says whether any still-pending probe could change it.
///
/// Rules (documented in netprobe(1)), with S = operators with a probe that answered correctly,
/// P = other operators with a probe whose answer shows interception (a portal answer, or a
/// host name that resolved to a private or reserved address), q = the quorum:
///   API captive       -> portal   (the Captive Portal API says captive: authoritative)
///   P >= q            -> portal   (independent endpoints agree traffic is intercepted,
///                                  even when other hosts are let through: allow-listing)
///   S >= q            -> online   (one lying or dead endpoint cannot make or break this)
///   P >= 1            -> portal   (interception seen, the Internet not proven)
///   otherwise         -> offline  (with the dominant failure as the reason)
/// The verdict is final when every possible outcome of the pending probes gives the same verdict.
public enum Verdict: String, Codable, Sendable {
    case online, portal, offline
}

public struct Decision: Sendable, Equatable {
    public var verdict: Verdict
    public var reason: String
    /// No pending probe can change the verdict any more.
    public var isFinal: Bool
    /// true: an HTTPS probe failed while HTTP probes validated; false: HTTPS validated too;
    /// nil: not known (no HTTPS probe settled, or nothing validated).
    public var partial: Bool?
    public var successOperators: Int
    public var portalOperators: Int
    public var quorum: Int

    public init(verdict: Verdict, reason: String, isFinal: Bool, partial: Bool?, successOperators: Int, portalOperators: Int, quorum: Int) {
        self.verdict = verdict
        self.reason = reason
        self.isFinal = isFinal
        self.partial = partial
        self.successOperators = successOperators
        self.portalOperators = portalOperators
        self.quorum = quorum
    }
}

public enum VerdictEngine {
    /// `capport`: the Captive Portal API's state. `captive: true` makes the verdict portal whatever
    /// the probes say (the network's own authoritative word); `captive: false` changes nothing; while
    /// the API's answer is pending the verdict is never final, so its answer (and the session's
    /// remaining time) makes it into the report — within the command's deadline.
    public static func decide(quorum: Int, settled: [ProbeEvidence], pending: [ProbeSpec],
                              capport: CapportSignal = .absent) -> Decision {
        let answered = settled.filter { $0.outcome != .skipped }
        let captive = capport == .settled(captive: true)
        // An operator may count in both sets: interception seen on one of its probes is not
        // excused by another of its probes getting through (portals allow-list hosts).
        let successOps = Set(answered.filter { $0.outcome == .success }.map(\.spec.operatorName))
        // Interception: a portal answer, or a host name hijacked to a private or reserved address.
        let portalOps = Set(answered.filter { $0.outcome == .portal || Classifier.dnsHijack($0) == true }.map(\.spec.operatorName))
        let pendingOps = Set(pending.map(\.operatorName))
        let canAddSuccess = pendingOps.subtracting(successOps).count
        let canAddPortal = pendingOps.subtracting(portalOps).count

        // Both counts only grow as probes land, so checking every reachable pair of counts is exhaustive.
        // Finality is judged on the probes alone, so the reason does not depend on whether the API
        // or the probes answered first; a captive API changes the verdict, never the waiting.
        let probed = verdict(success: successOps.count, portal: portalOps.count, quorum: quorum)
        let now = captive ? .portal : probed
        var isFinal = capport != .pending
        outer: for extraSuccess in 0...canAddSuccess {
            for extraPortal in 0...canAddPortal
            where verdict(success: successOps.count + extraSuccess, portal: portalOps.count + extraPortal, quorum: quorum) != probed {
                isFinal = false
                break outer
            }
        }
        return Decision(
            verdict: now,
            reason: reason(for: now, answered: answered, successOps: successOps.count, captive: captive),
            isFinal: isFinal,
            // "HTTP works, HTTPS does not" describes an online path; behind a portal or offline it says nothing.
            partial: now == .online ? partial(answered) : nil,
            successOperators: successOps.count,
            portalOperators: portalOps.count,
            quorum: quorum
        )
    }

    static func verdict(success: Int, portal: Int, quorum: Int) -> Verdict {
        if portal >= quorum { return .portal }
        if success >= quorum { return .online }
        if portal >= 1 { return .portal }
        return .offline
    }

    /// Portal reasons, strongest first: http-511 and http-redirect (the portal speaking on a probe),
    /// capport-captive (the network's API says so), dns-hijack (a probe name led to a private or
    /// reserved address), wrong-content (another page than expected).
    static func reason(for verdict: Verdict, answered: [ProbeEvidence], successOps: Int, captive: Bool = false) -> String {
        switch verdict {
        case .online:
            return "probes-validated"
        case .portal:
            let classes = Set(answered.filter { $0.outcome == .portal }.compactMap(\.errorClass))
            if classes.contains(.authRequired) { return "http-511" }
            if classes.contains(.redirect) { return "http-redirect" }
            if captive { return "capport-captive" }
            if answered.contains(where: { Classifier.dnsHijack($0) == true }) { return "dns-hijack" }
            return "wrong-content"
        case .offline:
            if successOps > 0 { return "quorum-not-met" }
            return dominantFailure(answered.filter { $0.outcome == .failure })
        }
    }

    /// The most common failure wins; ties go to the cause nearest the user
    /// (DNS before connection before time-outs before TLS before HTTP).
    static func dominantFailure(_ failures: [ProbeEvidence]) -> String {
        let order = ["dns-failed", "connect-failed", "timeout", "tls-failed", "protocol-error", "http-error"]
        var counts: [String: Int] = [:]
        for failure in failures {
            counts[offlineReason(failure.errorClass ?? .other), default: 0] += 1
        }
        guard let best = counts.values.max() else { return "no-probes" }
        return order.first { counts[$0] == best } ?? "connect-failed"
    }

    static func offlineReason(_ errorClass: ErrorClass) -> String {
        switch errorClass {
        case .dns: return "dns-failed"
        case .refused, .unreachable, .reset, .other: return "connect-failed"
        case .timeout: return "timeout"
        case .tls: return "tls-failed"
        case .proto: return "protocol-error"
        case .http4xx, .http5xx, .emptyBody, .wrongContent, .redirect, .authRequired: return "http-error"
        case .proxyAuthRequired: return "proxy-auth-required"
        case .proxyFailed: return "proxy-failed"
        }
    }

    static func partial(_ answered: [ProbeEvidence]) -> Bool? {
        let httpValidated = answered.contains { !$0.spec.isHTTPS && $0.outcome == .success }
        let https = answered.filter { $0.spec.isHTTPS }
        guard httpValidated, !https.isEmpty else { return nil }
        if https.contains(where: { $0.outcome == .failure }) { return true }
        return https.contains { $0.outcome == .success } ? false : nil
    }
}
