import NetprobeWire
/// What the probes alone say (no API, no canary): the verdict, whether it can still change,
/// and the operator counts behind it.
struct ProbeTally: Sendable, Equatable {
    var verdict: Verdict
    var isFinal: Bool
    var successOperators: Int
    var portalOperators: Int
    /// Operators with a certificate-verified HTTPS probe that answered correctly.
    var httpsOperators: Int

    init(quorum: Int, answered: [ProbeEvidence], pending: [ProbeSpec]) {
        // An operator may count in both sets: interception seen on one of its probes is not
        // excused by another of its probes getting through (portals allow-list hosts).
        // By index, not filter/map: those copied every evidence (spec, observation, body) in
        // each of the re-evaluations that follow every result.
        var successOps: Set<String> = [], portalOps: Set<String> = [], httpsOps: Set<String> = []
        for index in answered.indices {
            let outcome = answered[index].outcome
            if outcome == .success {
                successOps.insert(answered[index].spec.operatorName)
                if answered[index].spec.isHTTPS { httpsOps.insert(answered[index].spec.operatorName) }
            }
            if outcome == .portal || answered[index].dnsHijack == true { portalOps.insert(answered[index].spec.operatorName) }
        }
        // Any pending probe may still validate. Only a plain-HTTP one is waited for as possible
        // interception: an HTTPS answer is certificate-verified, which no portal can forge, and
        // behind a portal HTTPS fails. So HTTPS in flight never holds up a verdict that only
        // interception could overturn: plain HTTP that validated while HTTPS is dropped. (An
        // HTTPS answer that does show interception, such as a proxy answering CONNECT with a
        // redirect, still counts when it lands before the verdict is final.)
        var pendingOps: Set<String> = [], pendingHTTPOps: Set<String> = []
        for spec in pending {
            pendingOps.insert(spec.operatorName)
            if !spec.isHTTPS { pendingHTTPOps.insert(spec.operatorName) }
        }
        let canAddSuccess = pendingOps.subtracting(successOps).count
        let canAddPortal = pendingHTTPOps.subtracting(portalOps).count
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
        self.httpsOperators = httpsOps.count
    }

    static func verdict(success: Int, portal: Int, quorum: Int) -> Verdict {
        if portal >= quorum { return .portal }
        if success >= quorum { return .online }
        if portal >= 1 { return .portal }
        return .offline
    }
}
