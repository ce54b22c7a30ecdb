import NetprobeWire
/// The verdict engine: counts what the probes say and whether the rest could still change it.
///
/// Rules (documented in netprobe(1)), with S = operators with a probe that answered correctly
/// (plain HTTP, or HTTPS with its certificate verified), P = other operators with a probe whose
/// answer shows interception (a portal answer, or a host name that resolved to a private or
/// reserved address), q = the quorum:
///   API captive       -> portal   (the Captive Portal API says captive: authoritative)
///   P >= q            -> portal   (independent endpoints agree traffic is intercepted,
///                                  even when other hosts are let through: allow-listing)
///   S >= q            -> online   (one lying or dead endpoint cannot make or break this;
///                                  certificate-verified HTTPS alone can make it, whatever
///                                  plain HTTP fails with)
///   P >= 1            -> portal   (interception seen, the Internet not proven)
///   otherwise         -> offline  (with the dominant failure as the reason)
/// The verdict is final when every possible outcome of the pending probes gives the same verdict
/// (and the API has answered); HTTPS probes in flight count only as possible successes, never
/// as possible interception (`ProbeTally`), and a wrong-content portal waits for the canary's
/// answer as well. `VerdictEngine.conclude` is the one place a path's whole answer is decided.
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

    /// Whether plain HTTP works while HTTPS does not, on an online path. HTTPS "works" when
    /// certificate-verified HTTPS answered correctly for a quorum of operators, or for every
    /// HTTPS operator of the probe set when it has fewer than the quorum.
    /// true: plain HTTP validated and HTTPS can no longer reach that; false: HTTPS reached it;
    /// nil: not known (no HTTPS probe answered, HTTPS still running, or nothing validated).
    static func partial(_ answered: [ProbeEvidence], pending: [ProbeSpec], quorum: Int) -> Bool? {
        var httpValidated = false
        var httpsOps: Set<String> = [], validated: Set<String> = [], running: Set<String> = []
        for index in answered.indices {
            let spec = answered[index].spec
            if spec.isHTTPS {
                httpsOps.insert(spec.operatorName)
                if answered[index].outcome == .success { validated.insert(spec.operatorName) }
            } else if answered[index].outcome == .success {
                httpValidated = true
            }
        }
        guard !httpsOps.isEmpty else { return nil }
        for spec in pending where spec.isHTTPS {
            httpsOps.insert(spec.operatorName)
            running.insert(spec.operatorName)
        }
        let needed = min(quorum, httpsOps.count)
        if validated.count >= needed { return false }
        guard httpValidated else { return nil }
        return validated.count + running.subtracting(validated).count < needed ? true : nil
    }

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
        let partial = verdict == .online ? partial(answered, pending: findings.pending, quorum: findings.quorum) : nil
        // Only wrong-content can still become dns-hijack by the canary's answer; a stronger
        // portal reason, or another verdict, is what it is whatever the canary says.
        let awaitsCanary = findings.canaryPending && reason == .wrongContent
        return Conclusion(
            verdict: verdict, reason: reason,
            isFinal: tally.isFinal && !findings.capportPending && !awaitsCanary, probesFinal: tally.isFinal,
            awaitsCanary: awaitsCanary,
            portal: verdict == .portal ? PortalLocator.locate(findings.settled, capport: findings.capport,
                                                                         remembered: findings.rememberedPortalURL) : nil,
            partial: partial, partialError: NetworkInsights.partialError(answered, partial: partial),
            successOperators: tally.successOperators, portalOperators: tally.portalOperators,
            httpsOperators: tally.httpsOperators, quorum: findings.quorum,
            dnsHijack: NetworkInsights.dnsHijack(answered) || canaryResolved,
            proxy: NetworkInsights.proxy(answered))
    }
}

extension VerdictEngine {
    /// The answer when the configured resolvers failed and the probes were sent again with
    /// addresses from the link's own resolvers (`configured` is the first round's conclusion,
    /// `link` the second's). A portal met that way is the portal, with its login URL; probes
    /// that validate that way mean the network works and this machine's DNS setting does not
    /// (offline, `resolver-blocked`: every program on it fails). Anything else leaves the
    /// first answer standing (nil).
    public static func throughLinkResolvers(configured: Conclusion, link: Conclusion) -> Conclusion? {
        guard configured.verdict == .offline, configured.reason == .dnsFailed else { return nil }
        switch link.verdict {
        case .portal:
            return link
        case .online:
            return Conclusion(verdict: .offline, reason: .resolverBlocked, successOperators: link.successOperators,
                              portalOperators: link.portalOperators, quorum: link.quorum, dnsHijack: link.dnsHijack,
                              proxy: link.proxy)
        case .offline:
            return nil
        }
    }
}
