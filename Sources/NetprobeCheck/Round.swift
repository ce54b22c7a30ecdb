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
    }

    private var paths: [PathState]
    /// Request name -> (path index, what the request is, its name within the path).
    private var roles: [String: (path: Int, role: Role, name: String)] = [:]
    private var requests: [ProbeRequest] = []
    private let started: ContinuousClock.Instant

    init(_ plans: [PathPlan], quorum: Int, started: ContinuousClock.Instant) {
        self.started = started
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
            for (request, spec) in zip(plan.requests, plan.specs) { add(request, .probe(spec)) }
            if let request = plan.api?.request { add(request, .capport) }
            if let canary = plan.canary { add(canary.request, .canary(host: canary.host)) }
        }
    }

    var isEmpty: Bool { requests.isEmpty }

    /// Runs every transfer until each path's conclusion is final (and its graces are over),
    /// or the deadline passes.
    mutating func run(on runner: some TransferRunner, deadline: ContinuousClock.Instant) -> [PathResult] {
        if !requests.isEmpty {
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
            paths[index].findings.settled.append(Classifier.classify(observation, for: spec))
            paths[index].findings.pending.removeAll { $0.name == spec.name }
        case .capport:
            paths[index].findings.capport = paths[index].plan.api?.api.report(from: observation)
            paths[index].findings.capportPending = false
        case .canary(let host):
            paths[index].findings.canary = DNSCanaryReport.from(observation, name: host)
            paths[index].findings.canaryPending = false
        }
        Self.schedule(&paths[index], index: index, now: now, started: started, runner: runner)
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
        if conclusion.isFinal {
            // Plain HTTP whose grace has just run out is ending with its time-out, not as "not needed".
            let expiring = state.httpGraceOver && conclusion.verdict == .online
                ? Set(state.findings.pending.filter { !$0.isHTTPS }.map { "\(index)/\($0.name)" }) : []
            let https = Set(state.findings.pending.filter(\.isHTTPS).map { "\(index)/\($0.name)" })
            guard conclusion.verdict == .online, !https.isEmpty else {
                runner.end(state.running.subtracting(expiring), at: now, with: ProbeRunner.cancelledError)
                return
            }
            guard !state.httpsGraceGiven else { return }
            state.httpsGraceGiven = true
            let grace = HTTPSGrace.length(started: started, now: now)
            runner.end(https, at: now + grace, with: HTTPSGrace.expired(after: grace))
            runner.end(state.running.subtracting(https).subtracting(expiring), at: now + grace, with: ProbeRunner.cancelledError)
        } else if !conclusion.probesFinal {
            // Pending HTTPS never counts as possible interception (ProbeTally), so what keeps an
            // online verdict open here is plain HTTP alone.
            guard conclusion.verdict == .online, conclusion.httpsOperators >= conclusion.quorum,
                  state.httpGraceExpiry == nil else { return }
            let http = Set(state.findings.pending.filter { !$0.isHTTPS }.map { "\(index)/\($0.name)" })
            let grace = HTTPGrace.length(started: started, now: now)
            let expiry = HTTPGrace.expired(after: grace)
            state.httpGraceExpiry = expiry
            runner.end(http, at: now + grace, with: expiry)
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
                // Probes still running could only change the reason by arriving before the canary.
                if !state.findings.capportPending {
                    runner.end(state.running.subtracting(canary), at: now, with: ProbeRunner.cancelledError)
                }
                runner.end(canary, at: now + DNSCanary.grace, with: ProbeRunner.cancelledError)
            }
        }
    }
}
