import NetprobeWire
import NetprobeVerdict
import NetprobeOutput
import NetprobeSystem
import NetprobeNetwork

/// One round of transfers for one or more paths, all on one runner, concurrently. Each
/// answer is judged once, as it lands, and the path it belongs to is concluded again
/// (`VerdictEngine.conclude`); the round only schedules transfers around what the
/// conclusion says — it never edits one.
struct Round {
    /// What a round found on one path.
    struct PathResult {
        var plan: PathPlan
        var findings: PathFindings
        var conclusion: Conclusion
        /// When the path's last transfer ended (nil: it sent nothing).
        var settledAt: ContinuousClock.Instant?
        /// Which resolvers the answer rests on (`LinkResolverFallback`).
        var resolvers = ResolverReport()
        /// The DHCPINFORM sent for this path (`DHCPInformFallback`).
        var inform: DHCPInformReport?
    }

    private enum Role {
        case probe(ProbeSpec)
        case capport
        case canary(host: String)
    }

    private var paths: [RoundPathState]
    /// Request name -> (path index, what the request is, its name within the path).
    private var roles: [String: (path: Int, role: Role, name: String)] = [:]
    private var requests: [ProbeRequest] = []
    private let started: ContinuousClock.Instant
    private var deadline: ContinuousClock.Instant

    /// `hedged`: each path sends its probes in waves (`WavePlan`), its first wave drawn by `draw`.
    init(_ plans: [PathPlan], quorum: Int, started: ContinuousClock.Instant, hedged: Bool = false,
         draw: WaveDraw = .random) {
        self.started = started
        self.deadline = started
        paths = plans.map { plan in
            var findings = PathFindings(quorum: quorum, gate: plan.gate, pending: plan.specs, capport: plan.api?.report,
                                        capportPending: plan.api?.request != nil, canaryPending: plan.canary != nil)
            findings.rememberedPortalURL = plan.known?.portalURL
            return RoundPathState(plan: plan, findings: findings)
        }
        for (index, plan) in plans.enumerated() {
            // Names are unique per round: several paths send the same probes.
            func add(_ request: ProbeRequest, _ role: Role) {
                var renamed = request
                renamed.name = "\(index)/\(request.name)"
                roles[renamed.name] = (index, role, request.name)
                paths[index].running.insert(renamed.name)
                requests.append(renamed)
            }
            let first = hedged ? Set(WavePlan.firstWave(plan.specs, quorum: quorum, draw: draw.pick).map(\.name))
                               : Set(plan.specs.map(\.name))
            for (request, spec) in zip(plan.requests, plan.specs) {
                var request = request
                request.held = !first.contains(spec.name)
                if request.held { paths[index].waves.held.append(spec) }
                paths[index].waves.hedged = hedged
                add(request, .probe(spec))
            }
            if let request = plan.api?.request { add(request, .capport) }
            if let canary = plan.canary {
                var request = canary.request
                request.held = hedged
                paths[index].canary.held = hedged
                add(request, .canary(host: canary.host))
            }
        }
    }

    var isEmpty: Bool { requests.isEmpty }

    /// Runs every transfer until each path's conclusion is final (and its graces are over),
    /// or the deadline passes.
    mutating func run(on runner: some TransferRunner, deadline: ContinuousClock.Instant) -> [PathResult] {
        self.deadline = deadline
        if !requests.isEmpty {
            // The hedge before anything has answered (`WavePlan.hedgeCeiling`).
            for (index, state) in paths.enumerated() where !state.waves.held.isEmpty {
                paths[index].waves.hedgeAt = started + WavePlan.hedge(firstAnswer: nil)
                runner.release(Set(state.waves.held.map { "\(index)/\($0.name)" }), at: paths[index].waves.hedgeAt!)
                Self.releaseCanary(&paths[index], index: index, at: paths[index].waves.hedgeAt!, runner: runner)
            }
            var seen: Set<String> = []
            let observations = runner.run(requests, deadline: deadline) { observation in
                seen.insert(observation.name)
                receive(observation, runner: runner)
                return true
            }
            // A runner may end transfers without reporting them (a round it was told to end).
            for observation in observations where !seen.contains(observation.name) {
                receive(observation, runner: runner)
            }
        }
        return paths.map { state in
            PathResult(plan: state.plan, findings: state.findings, conclusion: VerdictEngine.conclude(state.findings),
                       settledAt: state.settledAt)
        }
    }

    private mutating func receive(_ observation: ProbeObservation, runner: some TransferRunner) {
        guard let (index, role, name) = roles[observation.name] else { return }
        var observation = observation
        observation.name = name
        let now = ContinuousClock.now
        // Changed in place: a copy of the path's state made every array in it shared, so each
        // result copied all the results before it (quadratic in the number of probes).
        paths[index].running.remove("\(index)/\(name)")
        paths[index].settledAt = now
        switch role {
        case .probe(let spec):
            if let expiry = paths[index].graces.httpGraceExpiry, observation.transportError == expiry {
                paths[index].graces.httpGraceOver = true
            }
            observation.resolver = Self.resolver(of: observation, plan: paths[index].plan)
            let evidence = Classifier.classify(observation, for: spec)
            paths[index].findings.settled.append(evidence)
            paths[index].findings.pending.removeAll { $0.name == spec.name }
            // A held probe answered: the hedge sent what was held, when it was due.
            if paths[index].waves.held.contains(where: { $0.name == spec.name }) { Self.hedgeSent(&paths[index], at: paths[index].waves.hedgeAt) }
            paths[index].waves.held.removeAll { $0.name == spec.name }
            paths[index].waves.dropped.remove(spec.name)
            if evidence.outcome != .skipped, paths[index].waves.firstAnswer == nil {
                paths[index].waves.firstAnswer = started.duration(to: now)
            }
            if spec.isHTTPS, evidence.outcome == .success {
                if paths[index].waves.firstHTTPSSuccess == nil { paths[index].waves.firstHTTPSSuccess = started.duration(to: now) }
            }
            wave(index, now: now, runner: runner)
        case .capport:
            paths[index].findings.capport = paths[index].plan.api?.api.report(from: observation)
            paths[index].findings.capportPending = false
        case .canary(let host):
            // Never let go before it ended: never sent, so nothing to report (`dns_canary` null).
            let sent = !paths[index].canary.held || (!paths[index].canary.dropped && paths[index].canary.release.map { $0 <= now } == true)
            paths[index].findings.canary = sent ? DNSCanaryReport.from(observation, name: host) : nil
            paths[index].findings.canaryPending = false
        }
        Self.schedule(&paths[index], index: index, now: now, started: started, runner: runner)
    }

    /// The wave plan's step after an answer: held probes sent now, dropped for good, or hedged.
    private mutating func wave(_ index: Int, now: ContinuousClock.Instant, runner: some TransferRunner) {
        guard !paths[index].waves.held.isEmpty else { return }
        if let hedgeAt = paths[index].waves.hedgeAt, hedgeAt <= now { Self.hedgeSent(&paths[index], at: hedgeAt) }
        let step = WavePlan.next(WavePlan.State(findings: paths[index].findings, held: paths[index].waves.held,
                                                elapsed: started.duration(to: now), firstAnswer: paths[index].waves.firstAnswer))
        if let wait = step.httpsWait, paths[index].waves.httpsWait == nil { paths[index].waves.httpsWait = wait }
        func names(_ list: [String]) -> Set<String> { Set(list.map { "\(index)/\($0)" }) }
        if !step.send.isEmpty {
            runner.release(names(step.send), at: now)
            Self.releaseCanary(&paths[index], index: index, at: now, runner: runner)
            // HTTPS asked during the grace ends with it, as the HTTPS already running does; asked
            // after it (the first was silent throughout), it has a grace of the same length.
            if let grace = paths[index].graces.httpsGraceEnd {
                let https = paths[index].waves.held.filter { $0.isHTTPS && step.send.contains($0.name) }.map(\.name)
                if now < grace.instant {
                    runner.end(names(https), at: grace.instant, with: grace.error)
                } else if paths[index].waves.hedgeSent {
                    // Out since the hedge, silent as long as the grace already: they end with it.
                    runner.end(names(https), at: now, with: grace.error)
                } else {
                    runner.end(names(https), at: now + grace.length, with: HTTPSGrace.expired(after: grace.length))
                }
            }
        }
        if !step.drop.isEmpty {
            runner.end(names(step.drop), at: now, with: ProbeRunner.cancelledError)
            paths[index].waves.dropped.formUnion(step.drop)
        }
        paths[index].waves.held.removeAll { step.send.contains($0.name) || step.drop.contains($0.name) }
        guard !paths[index].waves.held.isEmpty else { return }
        paths[index].waves.hedgeAt = step.hedgeAt.map { started + $0 }
        runner.release(names(paths[index].waves.held.map(\.name)), at: paths[index].waves.hedgeAt ?? deadline)
        if let hedgeAt = paths[index].waves.hedgeAt {
            // A hedge put off (the first wave's plain HTTP is in, its HTTPS gets longer) puts off
            // the canary with it, unless it is already out.
            if let release = paths[index].canary.release, release > now { paths[index].canary.release = nil }
            Self.releaseCanary(&paths[index], index: index, at: hedgeAt, runner: runner)
        }
    }

    private static func hedgeSent(_ state: inout RoundPathState, at instant: ContinuousClock.Instant?) {
        guard !state.waves.hedgeSent else { return }
        state.waves.hedgeSent = true
        state.waves.hedgeSentAt = instant
    }

    /// Lets the held canary go at `instant`, or earlier than already planned.
    static func releaseCanary(_ state: inout RoundPathState, index: Int, at instant: ContinuousClock.Instant,
                                      runner: some TransferRunner) {
        guard state.canary.held, !state.canary.dropped, state.canary.release.map({ instant < $0 }) ?? true else { return }
        state.canary.release = instant
        runner.release(["\(index)/\(DNSCanary.requestName)"], at: instant)
    }

    /// Whose answer the probe's addresses came from: the proxy's when it went through one,
    /// none for an IP literal, else the plan's resolvers.
    private static func resolver(of observation: ProbeObservation, plan: PathPlan) -> String? {
        if observation.proxy != nil { return "proxy" }
        return PathPlan.looksUpName(observation.url) ? plan.resolver : nil
    }
}
