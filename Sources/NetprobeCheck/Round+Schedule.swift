import NetprobeWire
import NetprobeVerdict
import NetprobeNetwork

extension Round {
    /// What the path's conclusion lets go of: everything once final (HTTPS after its grace);
    /// plain HTTP after its grace when an HTTPS quorum made the path online and only a portal on
    /// plain HTTP could still overturn it; everything after the API's grace when only the API
    /// keeps the path waiting; the probes at once and the canary after its grace when only the
    /// canary could still change the reason.
    static func schedule(_ state: inout RoundPathState, index: Int, now: ContinuousClock.Instant,
                                 started: ContinuousClock.Instant, runner: some TransferRunner) {
        guard !state.running.isEmpty else { return }
        let conclusion = VerdictEngine.conclude(state.findings)
        // Probes never sent (later waves) end as not needed, never with a time-out of their own.
        let unsent = state.waves.unsent(index)
        if conclusion.isFinal {
            // A settled path has no use for a canary it has not sent: nothing it says can change.
            if state.canary.held, !state.canary.dropped, state.canary.release.map({ $0 > now }) ?? true {
                state.canary.dropped = true
                runner.end(["\(index)/\(DNSCanary.requestName)"], at: now, with: ProbeRunner.cancelledError)
            }
            // Plain HTTP whose grace has just run out is ending with its time-out, not as "not needed".
            let expiring = state.graces.httpGraceOver && conclusion.verdict == .online
                ? Set(state.findings.pending.filter { !$0.isHTTPS }.map { "\(index)/\($0.name)" }).subtracting(unsent) : []
            let https = Set(state.findings.pending.filter(\.isHTTPS).map { "\(index)/\($0.name)" }).subtracting(unsent)
            guard conclusion.verdict == .online, !https.isEmpty else {
                runner.end(state.running.subtracting(expiring), at: now, with: ProbeRunner.cancelledError)
                return
            }
            guard !state.graces.httpsGraceGiven else { return }
            state.graces.httpsGraceGiven = true
            var grace = HTTPSGrace.length(started: started, now: now)
            var end = now + grace
            // HTTPS the HTTPS grace's hedge sent is waited for as long as the first wave's was,
            // from when it went, not three times a check that the wait itself made longer.
            if let sentAt = state.waves.hedgeSentAt, let wait = state.waves.httpsWait {
                grace = wait
                end = max(sentAt + wait, now)
            }
            let expired = HTTPSGrace.expired(after: grace)
            state.graces.httpsGraceEnd = (end, grace, expired)
            runner.end(https, at: end, with: expired)
            // Held probes stay with the wave plan: it may still ask one (`partial`) after the grace.
            runner.end(state.running.subtracting(https).subtracting(expiring).subtracting(unsent), at: end,
                       with: ProbeRunner.cancelledError)
        } else if !conclusion.probesFinal {
            // Pending HTTPS never counts as possible interception (ProbeTally), so what keeps an
            // online verdict open here is plain HTTP alone.
            guard conclusion.verdict == .online, conclusion.httpsOperators >= conclusion.quorum,
                  state.graces.httpGraceExpiry == nil else { return }
            let http = Set(state.findings.pending.filter { !$0.isHTTPS }.map { "\(index)/\($0.name)" }).subtracting(unsent)
            var grace = HTTPGrace.length(started: started, now: now)
            // Waves: the HTTPS quorum may have waited for a second wave, but the first wave's plain
            // HTTP has been out since the start: it gets what it would have had with every probe
            // sent at once, the grace counted from the first HTTPS answer.
            if state.waves.hedged, let first = state.waves.firstHTTPSSuccess {
                let end = started + max(first * (HTTPSGrace.factor + 1), first + HTTPSGrace.minimum)
                grace = max(now.duration(to: end), .zero)
            }
            let expiry = HTTPGrace.expired(after: grace)
            state.graces.httpGraceExpiry = expiry
            runner.end(http, at: now + grace, with: expiry)
            // Plain HTTP not sent yet could only show a portal that the first wave's would have shown.
            let heldHTTP = state.waves.held.filter { !$0.isHTTPS }.map(\.name)
            runner.end(Set(heldHTTP.map { "\(index)/\($0)" }), at: now, with: ProbeRunner.cancelledError)
            state.waves.dropped.formUnion(heldHTTP)
            state.waves.held.removeAll { !$0.isHTTPS }
        } else {
            // The probes have decided; the API and the canary may keep us waiting, each for a
            // bounded grace only.
            let canary: Set<String> = ["\(index)/\(DNSCanary.requestName)"]
            if state.findings.capportPending && !state.graces.apiGraceGiven {
                state.graces.apiGraceGiven = true
                let others = conclusion.awaitsCanary ? state.running.subtracting(canary) : state.running
                runner.end(others, at: now + CaptivePortalAPI.grace, with: ProbeRunner.cancelledError)
            }
            if conclusion.awaitsCanary && !state.graces.canaryGraceGiven {
                state.graces.canaryGraceGiven = true
                releaseCanary(&state, index: index, at: now, runner: runner)
                // Probes still running could only change the reason by arriving before the canary.
                if !state.findings.capportPending {
                    runner.end(state.running.subtracting(canary), at: now, with: ProbeRunner.cancelledError)
                }
                runner.end(canary, at: now + DNSCanary.grace, with: ProbeRunner.cancelledError)
            }
        }
    }
}
