#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import NetprobeCore
import NetprobeHTTP
import NetprobeLink

public struct CheckOptions: Sendable {
    public var config: ProbeConfig
    public var families: Set<AddressFamily>
    public var interfaces: [String]
    /// Hard deadline for the whole check, in seconds.
    public var timeout: Double
    public var caBundle: String?
    /// `--capport-url`: the Captive Portal API URI to ask, instead of the one the network announced.
    public var capportURL: String?
    /// Where announced Captive Portal API URIs are looked up (tests point it at fixtures).
    public var capportDiscovery: CapportDiscovery

    public init(config: ProbeConfig, families: Set<AddressFamily> = Set(AddressFamily.allCases), interfaces: [String] = [],
                timeout: Double? = nil, caBundle: String? = nil, capportURL: String? = nil,
                capportDiscovery: CapportDiscovery = .system()) {
        self.config = config
        self.families = families
        self.interfaces = interfaces
        self.timeout = timeout ?? config.timeout
        self.caBundle = caBundle
        self.capportURL = capportURL
        self.capportDiscovery = capportDiscovery
    }
}

public enum CheckError: Error, CustomStringConvertible {
    case netlink(String)
    case http(String)

    public var description: String {
        switch self {
        case .netlink(let message): return "cannot read the network state from the kernel: \(message)"
        case .http(let message): return "cannot start the HTTP client: \(message)"
        }
    }
}

/// One check, start to finish: path snapshot -> gate -> concurrent probes, each
/// fed to the verdict engine as it lands -> stop as soon as the verdict is final -> report.
public final class Checker {
    private let reader: PathReader
    private var runner: ProbeRunner?

    public init(reader: PathReader = PathReader()) {
        self.reader = reader
    }

    public func snapshot() throws(CheckError) -> PathSnapshot {
        do {
            return try reader.snapshot()
        } catch {
            throw .netlink(error.description)
        }
    }

    public func run(_ options: CheckOptions) throws(CheckError) -> Report {
        let clock = ContinuousClock()
        let start = clock.now
        let timestamp = Date()
        let deadline = start.advanced(by: .milliseconds(Int64(options.timeout * 1000)))
        let path = try snapshot()
        let config = options.config

        func report(_ decision: Decision, _ evidence: [ProbeEvidence], families: Set<AddressFamily>) -> Report {
            let elapsed = start.duration(to: clock.now)
            let ms = Double(elapsed.components.seconds) * 1000 + Double(elapsed.components.attoseconds) / 1e15
            return Report(
                verdict: decision.verdict, reason: decision.reason,
                portal: decision.verdict == .portal ? PortalLocator.locate(evidence) : nil,
                partial: decision.partial, durationMs: ms, timestamp: timestamp,
                quorumRequired: config.quorum, successOperators: decision.successOperators,
                portalOperators: decision.portalOperators,
                families: AddressFamily.allCases.filter(families.contains), path: path, probes: evidence)
        }

        switch Gate.evaluate(path, families: options.families, interfaces: options.interfaces) {
        case .offline(let reason):
            let decision = Decision(verdict: .offline, reason: reason.rawValue, isFinal: true, partial: nil,
                                    successOperators: 0, portalOperators: 0, quorum: config.quorum)
            return report(decision, config.probes.map { .skipped($0, because: .gate) }, families: [])
        case .pass(let families, let through):
            let plan = ProbePlan(config: config, families: families, interfaces: options.interfaces, through: through,
                                 timeout: options.timeout, caBundle: options.caBundle)
            let api = CaptivePortalAPI.discover(options, path: path, families: families, through: through)
            let round = try probe(plan, quorum: config.quorum, api: api, started: start, deadline: deadline)
            let (evidence, capport) = (round.evidence, round.capport)
            let settled = evidence.filter { $0.outcome != .skipped }
            var decision = VerdictEngine.decide(quorum: config.quorum, settled: settled, pending: [],
                                                capport: CapportSignal(capport))
            if plan.specs.isEmpty && decision.verdict == .offline { decision.reason = "no-probes" }
            // A resolver that answers a name that cannot exist explains a foreign page better than
            // "wrong content" does. It never makes a verdict by itself: ISPs' NXDOMAIN wildcards
            // lie the same way on networks that work.
            if decision.verdict == .portal && decision.reason == "wrong-content" && round.canary?.resolved == true {
                decision.reason = "dns-hijack"
            }
            let all = evidence + plan.filtered.map { .skipped($0, because: .filtered) }
            let ordered = config.probes.compactMap { spec in all.first { $0.spec.name == spec.name } }
            var result = report(decision, ordered, families: families)
            result.addInsights(capport: capport, canary: round.canary)
            return result
        }
    }

    /// Runs the probes and, when there is one to ask, the Captive Portal API query alongside them.
    /// What one round of transfers found: the probes' evidence, the API's answer, the canary's fate.
    struct Round {
        var evidence: [ProbeEvidence]
        var capport: CapportReport?
        var canary: DNSCanaryReport?
    }

    private func probe(_ plan: ProbePlan, quorum: Int, api: CaptivePortalAPI.Query?, started: ContinuousClock.Instant,
                       deadline: ContinuousClock.Instant) throws(CheckError) -> Round {
        var requests = plan.requests
        if let request = api?.request { requests.append(request) }
        let canary = DNSCanary.request(like: plan)
        if let (request, _) = canary { requests.append(request) }
        guard !requests.isEmpty else { return Round(evidence: [], capport: api?.report, canary: nil) }
        let runner = try probeRunner()
        let specs = Dictionary(uniqueKeysWithValues: plan.specs.map { ($0.name, $0) })
        // Each answer is judged once, as it lands; only transfers ended by the runner are judged afterwards.
        var settled: [ProbeEvidence] = []
        var judged: [String: ProbeEvidence] = [:]
        var answered: CapportReport?
        var pending = plan.specs
        var capport: CapportSignal = api?.request == nil ? .absent : .pending
        var grace = HTTPSGrace()
        let observations = runner.run(requests, deadline: deadline) { observation in
            if let api, observation.name == CaptivePortalAPI.requestName {
                answered = api.api.report(from: observation)
                capport = CapportSignal(answered)
            } else if let spec = specs[observation.name] {
                let evidence = Classifier.classify(observation, for: spec)
                settled.append(evidence)
                judged[spec.name] = evidence
                pending.removeAll { $0.name == observation.name }
            }
            let decision = VerdictEngine.decide(quorum: quorum, settled: settled, pending: pending, capport: capport)
            if decision.isFinal {
                guard decision.verdict == .online, pending.contains(where: \.isHTTPS) else { return false }
                grace.begin(started: started, runner: runner)
                return true
            }
            // The probes have decided; the API alone keeps us waiting, for a bounded grace only.
            if capport == .pending && VerdictEngine.decide(quorum: quorum, settled: settled, pending: pending).isFinal {
                runner.cancelRemaining(at: .now + CaptivePortalAPI.grace)
            }
            return true
        }
        let ended = ContinuousClock.now
        let evidence = observations.compactMap { observation in
            judged[observation.name] ?? specs[observation.name].map {
                Classifier.classify(grace.settle(observation, spec: $0, endedAt: ended), for: $0)
            }
        }
        // An API query the runner ended (cancelled, timed out) never reached the closure: read it here.
        let capportReport = answered
            ?? observations.first { $0.name == CaptivePortalAPI.requestName }.flatMap { api?.api.report(from: $0) }
            ?? api?.report
        let canaryReport = canary.flatMap { _, host in
            observations.first { $0.name == DNSCanary.requestName }.map { DNSCanaryReport.from($0, name: host) }
        }
        return Round(evidence: evidence, capport: capportReport, canary: canaryReport)
    }

    /// One runner (one libcurl multi handle) for the life of the checker: watch and wait re-check with it.
    private func probeRunner() throws(CheckError) -> ProbeRunner {
        if let runner { return runner }
        do {
            let fresh = try ProbeRunner()
            runner = fresh
            return fresh
        } catch {
            throw .http(String(describing: error))
        }
    }
}
