/// The verdict engine: counts what the probes say and whether the rest could still change it.
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
/// The verdict is final when every possible outcome of the pending probes gives the same verdict
/// (and the API has answered); a wrong-content portal waits for the canary's answer as well.
/// `VerdictEngine.conclude` (Conclusion.swift) is the one place a path's whole answer is decided.
public enum Verdict: String, Codable, Sendable, Comparable {
    case online, portal, offline

    /// online > portal > offline: the better way out wins when paths disagree.
    private var rank: Int {
        switch self {
        case .online: return 2
        case .portal: return 1
        case .offline: return 0
        }
    }

    public static func < (lhs: Verdict, rhs: Verdict) -> Bool { lhs.rank < rhs.rank }

    /// The process's exit status for this verdict: a stable interface, scripts and units test it.
    public var exitCode: Int32 {
        switch self {
        case .online: return 0
        case .offline: return 1
        case .portal: return 2
        }
    }
}

/// What the probes alone say (no API, no canary): the verdict, whether it can still change,
/// and the operator counts behind it.
struct ProbeTally: Sendable, Equatable {
    var verdict: Verdict
    var isFinal: Bool
    var successOperators: Int
    var portalOperators: Int

    init(quorum: Int, answered: [ProbeEvidence], pending: [ProbeSpec]) {
        // An operator may count in both sets: interception seen on one of its probes is not
        // excused by another of its probes getting through (portals allow-list hosts).
        // By index, not filter/map: those copied every evidence (spec, observation, body) in
        // each of the re-evaluations that follow every result.
        var successOps: Set<String> = [], portalOps: Set<String> = []
        for index in answered.indices {
            let outcome = answered[index].outcome
            if outcome == .success { successOps.insert(answered[index].spec.operatorName) }
            if outcome == .portal || answered[index].dnsHijack == true { portalOps.insert(answered[index].spec.operatorName) }
        }
        let pendingOps = Set(pending.map(\.operatorName))
        let canAddSuccess = pendingOps.subtracting(successOps).count
        let canAddPortal = pendingOps.subtracting(portalOps).count
        let now = Self.verdict(success: successOps.count, portal: portalOps.count, quorum: quorum)
        // Both counts only grow as probes land, so checking every reachable pair of counts is exhaustive.
        var isFinal = true
        outer: for extraSuccess in 0...canAddSuccess {
            for extraPortal in 0...canAddPortal
            where Self.verdict(success: successOps.count + extraSuccess, portal: portalOps.count + extraPortal, quorum: quorum) != now {
                isFinal = false
                break outer
            }
        }
        self.verdict = now
        self.isFinal = isFinal
        self.successOperators = successOps.count
        self.portalOperators = portalOps.count
    }

    static func verdict(success: Int, portal: Int, quorum: Int) -> Verdict {
        if portal >= quorum { return .portal }
        if success >= quorum { return .online }
        if portal >= 1 { return .portal }
        return .offline
    }
}

public enum VerdictEngine {
    /// Portal reasons, strongest first: http-511 and http-redirect (the portal speaking on a probe),
    /// capport-captive (the network's API says so), dns-hijack (a probe name led to a private or
    /// reserved address, or the resolver answered a name that cannot exist), wrong-content.
    static func portalReason(answered: [ProbeEvidence], captive: Bool, canaryResolved: Bool) -> Reason {
        let classes = Set(answered.filter { $0.outcome == .portal }.compactMap(\.errorClass))
        if classes.contains(.authRequired) { return .http511 }
        if classes.contains(.redirect) { return .httpRedirect }
        if captive { return .capportCaptive }
        if answered.contains(where: { Classifier.dnsHijack($0) == true }) { return .dnsHijack }
        // A resolver that answers a name that cannot exist explains a foreign page better than
        // "wrong content" does. It never makes a verdict by itself: ISPs' NXDOMAIN wildcards
        // lie the same way on networks that work.
        return canaryResolved ? .dnsHijack : .wrongContent
    }

    /// The most common failure wins; ties go to the cause nearest the user
    /// (the proxy before DNS before connection before time-outs before TLS before HTTP).
    static func dominantFailure(_ failures: [ProbeEvidence]) -> Reason {
        let order: [Reason] = [.proxyAuthRequired, .proxyFailed, .dnsFailed, .connectFailed, .timeout, .tlsFailed,
                               .protocolError, .httpError]
        var counts: [Reason: Int] = [:]
        for failure in failures {
            counts[offlineReason(failure.errorClass ?? .other), default: 0] += 1
        }
        guard let best = counts.values.max() else { return .noProbes }
        return order.first { counts[$0] == best } ?? .connectFailed
    }

    static func offlineReason(_ errorClass: ErrorClass) -> Reason {
        switch errorClass {
        case .dns: return .dnsFailed
        case .refused, .unreachable, .reset, .other: return .connectFailed
        case .timeout: return .timeout
        case .tls: return .tlsFailed
        case .proto: return .protocolError
        case .http4xx, .http5xx, .emptyBody, .wrongContent, .redirect, .authRequired: return .httpError
        case .proxyAuthRequired: return .proxyAuthRequired
        case .proxyFailed: return .proxyFailed
        }
    }

    /// true: an HTTPS probe failed while HTTP probes validated; false: HTTPS validated too;
    /// nil: not known (no HTTPS probe settled, or nothing validated).
    static func partial(_ answered: [ProbeEvidence]) -> Bool? {
        var httpValidated = false, anyHTTPS = false, httpsFailed = false, httpsValidated = false
        for index in answered.indices {
            let outcome = answered[index].outcome
            if answered[index].spec.isHTTPS {
                anyHTTPS = true
                httpsFailed = httpsFailed || outcome == .failure
                httpsValidated = httpsValidated || outcome == .success
            } else if outcome == .success {
                httpValidated = true
            }
        }
        guard httpValidated, anyHTTPS else { return nil }
        if httpsFailed { return true }
        return httpsValidated ? false : nil
    }
}
