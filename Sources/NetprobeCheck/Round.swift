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

    private struct PathState {
        var plan: PathPlan
        var findings: PathFindings
        var running: Set<String> = []
        var settledAt: ContinuousClock.Instant?
        var httpsGraceGiven = false
        /// The error silent plain-HTTP probes end with when their grace runs out (`HTTPGrace`).
        var httpGraceExpiry: TransportError?
        /// A probe has ended with it: the rest of the silent ones are ending with it too, now.
        var httpGraceOver = false
        var apiGraceGiven = false
        var canaryGraceGiven = false
        /// Probes of later waves not sent yet (`WavePlan`), or sent only by the hedge (the first
        /// wave was slow): the plan may still let them go once the first wave has settled the
        /// path, as it would have had they waited. Still in `findings.pending`.
        var held: [ProbeSpec] = []
        /// When the first probe answered, and the first HTTPS probe validated, since the start.
        var firstAnswer: Duration?
        var firstHTTPSSuccess: Duration?
        /// When HTTPS still running on an online path is ended, its grace, and how (`HTTPSGrace`).
        var httpsGraceEnd: (instant: ContinuousClock.Instant, length: Duration, error: TransportError)?
        /// Held probes the wave plan decided never to send (their cancellation is on its way).
        var dropped: Set<String> = []
        var hedged = false
        /// When the runner sends whatever is still held (the hedge); nil: not scheduled.
        var hedgeAt: ContinuousClock.Instant?
        /// The hedge has passed: the runner has sent what was held then.
        var hedgeSent = false
        /// When the hedge sent them, and how long the first wave's HTTPS was waited for when
        /// the hedge was its grace (`WavePlan.Step.httpsWait`).
        var hedgeSentAt: ContinuousClock.Instant?
        var httpsWait: Duration?
        /// Waves: the canary goes with the later wave (or the hedge), or when only its answer could
        /// still change the reason; a path the first wave settles never sends it. `canaryRelease`
        /// is when it was let go (nil: held still).
        var canaryHeld = false
        var canaryRelease: ContinuousClock.Instant?
        /// The path was final before the held canary went: it is never sent.
        var canaryDropped = false

        /// Request names of the probes never sent: held, or dropped before they were.
        func unsent(_ index: Int) -> Set<String> {
            Set(held.map { "\(index)/\($0.name)" }).union(dropped.map { "\(index)/\($0)" })
        }
    }

    private var paths: [PathState]
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
            PathState(plan: plan, findings: PathFindings(quorum: quorum, gate: plan.gate, pending: plan.specs,
                                                         capport: plan.api?.report, capportPending: plan.api?.request != nil,
                                                         canaryPending: plan.canary != nil))
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
                if request.held { paths[index].held.append(spec) }
                paths[index].hedged = hedged
                add(request, .probe(spec))
            }
            if let request = plan.api?.request { add(request, .capport) }
            if let canary = plan.canary {
                var request = canary.request
                request.held = hedged
                paths[index].canaryHeld = hedged
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
            for (index, state) in paths.enumerated() where !state.held.isEmpty {
                paths[index].hedgeAt = started + WavePlan.hedge(firstAnswer: nil)
                runner.release(Set(state.held.map { "\(index)/\($0.name)" }), at: paths[index].hedgeAt!)
                Self.releaseCanary(&paths[index], index: index, at: paths[index].hedgeAt!, runner: runner)
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
            if let expiry = paths[index].httpGraceExpiry, observation.transportError == expiry {
                paths[index].httpGraceOver = true
            }
            observation.resolver = Self.resolver(of: observation, plan: paths[index].plan)
            let evidence = Classifier.classify(observation, for: spec)
            paths[index].findings.settled.append(evidence)
            paths[index].findings.pending.removeAll { $0.name == spec.name }
            // A held probe answered: the hedge sent what was held, when it was due.
            if paths[index].held.contains(where: { $0.name == spec.name }) { Self.hedgeSent(&paths[index], at: paths[index].hedgeAt) }
            paths[index].held.removeAll { $0.name == spec.name }
            paths[index].dropped.remove(spec.name)
            if evidence.outcome != .skipped, paths[index].firstAnswer == nil {
                paths[index].firstAnswer = started.duration(to: now)
            }
            if spec.isHTTPS, evidence.outcome == .success {
                if paths[index].firstHTTPSSuccess == nil { paths[index].firstHTTPSSuccess = started.duration(to: now) }
            }
            wave(index, now: now, runner: runner)
        case .capport:
            paths[index].findings.capport = paths[index].plan.api?.api.report(from: observation)
            paths[index].findings.capportPending = false
        case .canary(let host):
            // Never let go before it ended: never sent, so nothing to report (`dns_canary` null).
            let sent = !paths[index].canaryHeld || (!paths[index].canaryDropped && paths[index].canaryRelease.map { $0 <= now } == true)
            paths[index].findings.canary = sent ? DNSCanaryReport.from(observation, name: host) : nil
            paths[index].findings.canaryPending = false
        }
        Self.schedule(&paths[index], index: index, now: now, started: started, runner: runner)
    }

    /// The wave plan's step after an answer: held probes sent now, dropped for good, or hedged.
    private mutating func wave(_ index: Int, now: ContinuousClock.Instant, runner: some TransferRunner) {
        guard !paths[index].held.isEmpty else { return }
        if let hedgeAt = paths[index].hedgeAt, hedgeAt <= now { Self.hedgeSent(&paths[index], at: hedgeAt) }
        let step = WavePlan.next(WavePlan.State(findings: paths[index].findings, held: paths[index].held,
                                                elapsed: started.duration(to: now), firstAnswer: paths[index].firstAnswer))
        if let wait = step.httpsWait, paths[index].httpsWait == nil { paths[index].httpsWait = wait }
        func names(_ list: [String]) -> Set<String> { Set(list.map { "\(index)/\($0)" }) }
        if !step.send.isEmpty {
            runner.release(names(step.send), at: now)
            Self.releaseCanary(&paths[index], index: index, at: now, runner: runner)
            // HTTPS asked during the grace ends with it, as the HTTPS already running does; asked
            // after it (the first was silent throughout), it has a grace of the same length.
            if let grace = paths[index].httpsGraceEnd {
                let https = paths[index].held.filter { $0.isHTTPS && step.send.contains($0.name) }.map(\.name)
                if now < grace.instant {
                    runner.end(names(https), at: grace.instant, with: grace.error)
                } else if paths[index].hedgeSent {
                    // Out since the hedge, silent as long as the grace already: they end with it.
                    runner.end(names(https), at: now, with: grace.error)
                } else {
                    runner.end(names(https), at: now + grace.length, with: HTTPSGrace.expired(after: grace.length))
                }
            }
        }
        if !step.drop.isEmpty {
            runner.end(names(step.drop), at: now, with: ProbeRunner.cancelledError)
            paths[index].dropped.formUnion(step.drop)
        }
        paths[index].held.removeAll { step.send.contains($0.name) || step.drop.contains($0.name) }
        guard !paths[index].held.isEmpty else { return }
        paths[index].hedgeAt = step.hedgeAt.map { started + $0 }
        runner.release(names(paths[index].held.map(\.name)), at: paths[index].hedgeAt ?? deadline)
        if let hedgeAt = paths[index].hedgeAt {
            // A hedge put off (the first wave's plain HTTP is in, its HTTPS gets longer) puts off
            // the canary with it, unless it is already out.
            if let release = paths[index].canaryRelease, release > now { paths[index].canaryRelease = nil }
            Self.releaseCanary(&paths[index], index: index, at: hedgeAt, runner: runner)
        }
    }

    private static func hedgeSent(_ state: inout PathState, at instant: ContinuousClock.Instant?) {
        guard !state.hedgeSent else { return }
        state.hedgeSent = true
        state.hedgeSentAt = instant
    }

    /// Lets the held canary go at `instant`, or earlier than already planned.
    private static func releaseCanary(_ state: inout PathState, index: Int, at instant: ContinuousClock.Instant,
                                      runner: some TransferRunner) {
        guard state.canaryHeld, !state.canaryDropped, state.canaryRelease.map({ instant < $0 }) ?? true else { return }
        state.canaryRelease = instant
        runner.release(["\(index)/\(DNSCanary.requestName)"], at: instant)
    }

    /// Whose answer the probe's addresses came from: the proxy's when it went through one,
    /// none for an IP literal, else the plan's resolvers.
    private static func resolver(of observation: ProbeObservation, plan: PathPlan) -> String? {
        if observation.proxy != nil { return "proxy" }
        return PathPlan.looksUpName(observation.url) ? plan.resolver : nil
    }

    /// What the path's conclusion lets go of: everything once final (HTTPS after its grace);
    /// plain HTTP after its grace when an HTTPS quorum made the path online and only a portal on
    /// plain HTTP could still overturn it; everything after the API's grace when only the API
    /// keeps the path waiting; the probes at once and the canary after its grace when only the
    /// canary could still change the reason.
    private static func schedule(_ state: inout PathState, index: Int, now: ContinuousClock.Instant,
                                 started: ContinuousClock.Instant, runner: some TransferRunner) {
        guard !state.running.isEmpty else { return }
        let conclusion = VerdictEngine.conclude(state.findings)
        // Probes never sent (later waves) end as not needed, never with a time-out of their own.
        let unsent = state.unsent(index)
        if conclusion.isFinal {
            // A settled path has no use for a canary it has not sent: nothing it says can change.
            if state.canaryHeld, !state.canaryDropped, state.canaryRelease.map({ $0 > now }) ?? true {
                state.canaryDropped = true
                runner.end(["\(index)/\(DNSCanary.requestName)"], at: now, with: ProbeRunner.cancelledError)
            }
            // Plain HTTP whose grace has just run out is ending with its time-out, not as "not needed".
            let expiring = state.httpGraceOver && conclusion.verdict == .online
                ? Set(state.findings.pending.filter { !$0.isHTTPS }.map { "\(index)/\($0.name)" }).subtracting(unsent) : []
            let https = Set(state.findings.pending.filter(\.isHTTPS).map { "\(index)/\($0.name)" }).subtracting(unsent)
            guard conclusion.verdict == .online, !https.isEmpty else {
                runner.end(state.running.subtracting(expiring), at: now, with: ProbeRunner.cancelledError)
                return
            }
            guard !state.httpsGraceGiven else { return }
            state.httpsGraceGiven = true
            var grace = HTTPSGrace.length(started: started, now: now)
            var end = now + grace
            // HTTPS the HTTPS grace's hedge sent is waited for as long as the first wave's was,
            // from when it went, not three times a check that the wait itself made longer.
            if let sentAt = state.hedgeSentAt, let wait = state.httpsWait {
                grace = wait
                end = max(sentAt + wait, now)
            }
            let expired = HTTPSGrace.expired(after: grace)
            state.httpsGraceEnd = (end, grace, expired)
            runner.end(https, at: end, with: expired)
            // Held probes stay with the wave plan: it may still ask one (`partial`) after the grace.
            runner.end(state.running.subtracting(https).subtracting(expiring).subtracting(unsent), at: end,
                       with: ProbeRunner.cancelledError)
        } else if !conclusion.probesFinal {
            // Pending HTTPS never counts as possible interception (ProbeTally), so what keeps an
            // online verdict open here is plain HTTP alone.
            guard conclusion.verdict == .online, conclusion.httpsOperators >= conclusion.quorum,
                  state.httpGraceExpiry == nil else { return }
            let http = Set(state.findings.pending.filter { !$0.isHTTPS }.map { "\(index)/\($0.name)" }).subtracting(unsent)
            var grace = HTTPGrace.length(started: started, now: now)
            // Waves: the HTTPS quorum may have waited for a second wave, but the first wave's plain
            // HTTP has been out since the start: it gets what it would have had with every probe
            // sent at once, the grace counted from the first HTTPS answer.
            if state.hedged, let first = state.firstHTTPSSuccess {
                let end = started + max(first * (HTTPSGrace.factor + 1), first + HTTPSGrace.minimum)
                grace = max(now.duration(to: end), .zero)
            }
            let expiry = HTTPGrace.expired(after: grace)
            state.httpGraceExpiry = expiry
            runner.end(http, at: now + grace, with: expiry)
            // Plain HTTP not sent yet could only show a portal that the first wave's would have shown.
            let heldHTTP = state.held.filter { !$0.isHTTPS }.map(\.name)
            runner.end(Set(heldHTTP.map { "\(index)/\($0)" }), at: now, with: ProbeRunner.cancelledError)
            state.dropped.formUnion(heldHTTP)
            state.held.removeAll { !$0.isHTTPS }
        } else {
            // The probes have decided; the API and the canary may keep us waiting, each for a
            // bounded grace only.
            let canary: Set<String> = ["\(index)/\(DNSCanary.requestName)"]
            if state.findings.capportPending && !state.apiGraceGiven {
                state.apiGraceGiven = true
                let others = conclusion.awaitsCanary ? state.running.subtracting(canary) : state.running
                runner.end(others, at: now + CaptivePortalAPI.grace, with: ProbeRunner.cancelledError)
            }
            if conclusion.awaitsCanary && !state.canaryGraceGiven {
                state.canaryGraceGiven = true
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
