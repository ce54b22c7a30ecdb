import NetprobeWire
import NetprobeVerdict
import NetprobeOutput
import NetprobeSystem
import NetprobeNetwork

/// When the configured resolvers fail for the probe names on a path whose link announced
/// resolvers of its own, netprobe asks those itself (`DNSExchange`, bound to the link) and
/// sends the probes again with the answers pinned (`CURLOPT_RESOLVE`). Captive portals block
/// every resolver but their own: this is how a portal behind a user's own resolver (1.1.1.1,
/// a VPN's, DNS-over-TLS) is still found, and how "the network works, this machine's DNS
/// setting does not" is told from "offline". The verdict is `VerdictEngine.throughLinkResolvers`'.
enum LinkResolverFallback {
    /// How long the link's resolvers get for all the probe names (within the check's deadline).
    static let patience: Duration = .milliseconds(1500)

    /// `result` again, answered through the link's resolvers when its probes failed to resolve.
    typealias LookUp = (_ hosts: [String], _ families: Set<AddressFamily>, _ link: LinkResolvers,
                        _ deadline: ContinuousClock.Instant) -> Lookup

    static func retry(_ result: Round.PathResult, config: ProbeConfig, started: ContinuousClock.Instant,
                      deadline: ContinuousClock.Instant, lookUp: LookUp = LinkResolverFallback.lookUp(_:families:link:deadline:),
                      runner: () throws(CheckError) -> any TransferRunner)
        throws(CheckError) -> Round.PathResult {
        var out = result
        out.resolvers.leaseErrors = result.plan.leaseProblems
        guard let link = result.plan.linkResolvers else { return out }
        out.resolvers = ResolverReport(link: link.servers, linkSource: link.source, linkInterface: link.interface)
        out.resolvers.leaseErrors = result.plan.leaseProblems
        guard ContinuousClock.now < deadline else { return out }
        guard everyProbeFailedToResolve(result) else {
            return try slowNamesAskedAgain(result, resolvers: out.resolvers, config: config, started: started,
                                           deadline: deadline, runner: runner) ?? out
        }
        let hosts = Self.hosts(result.plan)
        guard !hosts.isEmpty else { return out }
        out.resolvers.linkAsked = true
        let lookup = lookUp(hosts, result.plan.families, link, min(deadline, ContinuousClock.now + patience))
        guard let server = lookup.server else {
            out.resolvers.linkError = lookup.errors.joined(separator: "; ")
            return out
        }
        out.resolvers.linkServer = server

        var plan = result.plan
        var kept: [(ProbeRequest, ProbeSpec)] = []
        for (request, spec) in zip(plan.requests, plan.specs) {
            guard let host = URLSyntax.hostAndPort(request.url)?.host, let addresses = lookup.addresses[host] else { continue }
            var pinned = request
            pinned.resolveWithin = nil
            pinned.pinnedAddresses = addresses
            kept.append((pinned, spec))
        }
        plan.requests = kept.map(\.0)
        plan.specs = kept.map(\.1)
        // The API and the canary asked the local network already; only the probes go again.
        plan.api = nil
        plan.canary = nil
        plan.resolver = "link"
        var round = Round([plan], quorum: config.quorum, started: started)
        guard var second = round.run(on: try runner(), deadline: deadline).first,
              let conclusion = VerdictEngine.throughLinkResolvers(configured: result.conclusion, link: second.conclusion) else {
            return out
        }
        out.resolvers.used = .link
        if conclusion.reason == .resolverBlocked {
            // The link's resolvers work. Before blaming the configured ones, ask them once more:
            // an answer that took longer than the first round's patience (a stub's cold cache,
            // a slow first hop) is a slow resolver, not a blocked one.
            out.resolvers.configuredRetried = true
            if var again = try askConfiguredAgain(result, config: config, started: started, deadline: deadline,
                                                  runner: runner) {
                out.resolvers.used = .configured
                again.resolvers = out.resolvers
                return merged(again, into: result)
            }
        }
        second.conclusion = conclusion
        second.resolvers = out.resolvers
        return merged(second, into: result)
    }

    /// `later`, a round that sent some of `first`'s probes again, reported whole: the probes
    /// not sent again as they failed, and the first round's API answer and canary.
    static func merged(_ later: Round.PathResult, into first: Round.PathResult) -> Round.PathResult {
        var out = later
        let resent = Set(later.plan.specs.map(\.name))
        out.findings.settled += first.findings.settled.filter { !resent.contains($0.spec.name) }
        out.findings.capport = first.findings.capport
        out.findings.canary = first.findings.canary
        out.plan.api = first.plan.api
        return out
    }

    /// Some names resolved and others ran out of the resolve cut-off: the configured resolvers
    /// answer, some names slowly (a stub whose cache holds a few of them, as after boot). An
    /// offline answer resting on the cut-off would be netprobe's own doing, so those probes are
    /// sent again through the configured resolvers with the longer patience, and the path is
    /// concluded on everything it saw. Nil when nothing is to be asked again.
    static func slowNamesAskedAgain(_ result: Round.PathResult, resolvers: ResolverReport, config: ProbeConfig,
                                    started: ContinuousClock.Instant, deadline: ContinuousClock.Instant,
                                    runner: () throws(CheckError) -> any TransferRunner) throws(CheckError) -> Round.PathResult? {
        guard result.conclusion.verdict == .offline else { return nil }
        let settled = result.findings.settled.filter { $0.outcome != .skipped }
        let cutOff = Set(settled.filter { $0.errorClass == .dns }.map(\.spec.name))
        guard !cutOff.isEmpty, settled.contains(where: resolved),
              var again = try askConfiguredAgain(result, only: cutOff, keepingFailures: true, config: config,
                                                 started: started, deadline: deadline, runner: runner) else { return nil }
        again.resolvers = resolvers
        again.resolvers.configuredRetried = true
        var out = merged(again, into: result)
        out.conclusion = VerdictEngine.conclude(out.findings)
        return out
    }

    /// How long the configured resolvers get when asked again before `resolver-blocked`.
    static let configuredRetryPatience = 1.5

    /// The probes that the system resolver looked up, sent again the same way with a new resolve
    /// deadline (`configuredRetryPatience`, within the check's). The round's result when the
    /// configured resolvers answered this time (whatever the probes then met); nil when they
    /// failed again (unless `keepingFailures`), or no time is left.
    static func askConfiguredAgain(_ result: Round.PathResult, only names: Set<String>? = nil,
                                   keepingFailures: Bool = false, config: ProbeConfig,
                                   started: ContinuousClock.Instant, deadline: ContinuousClock.Instant,
                                   runner: () throws(CheckError) -> any TransferRunner) throws(CheckError) -> Round.PathResult? {
        guard ContinuousClock.now < deadline else { return nil }
        var plan = result.plan
        var kept: [(ProbeRequest, ProbeSpec)] = []
        for (request, spec) in zip(plan.requests, plan.specs)
        where request.resolveWithin != nil && names.map({ $0.contains(spec.name) }) ?? true {
            var again = request
            again.resolveWithin = configuredRetryPatience
            kept.append((again, spec))
        }
        guard !kept.isEmpty else { return nil }
        plan.requests = kept.map(\.0)
        plan.specs = kept.map(\.1)
        plan.api = nil
        plan.canary = nil
        var round = Round([plan], quorum: config.quorum, started: started)
        guard let again = round.run(on: try runner(), deadline: deadline).first else { return nil }
        // Every probe failed to resolve again: the configured resolvers are blocked after all.
        return keepingFailures || again.findings.settled.contains(where: resolved) ? again : nil
    }

    /// The probe's host name resolved: it was answered, or failed at a step after resolution.
    static func resolved(_ evidence: ProbeEvidence) -> Bool {
        if evidence.outcome == .success || evidence.outcome == .portal || evidence.observation?.remoteAddress != nil {
            return true
        }
        guard evidence.outcome == .failure, let errorClass = evidence.errorClass else { return false }
        return ![.dns, .timeout, .other].contains(errorClass)
    }

    /// The trigger, as the man page states it: the path is offline and every probe sent failed
    /// to resolve its name. When some names resolved, the configured resolvers work, and
    /// whatever failed after that is no matter for the link's resolvers (DNS being merely the
    /// most common failure is not enough).
    static func everyProbeFailedToResolve(_ result: Round.PathResult) -> Bool {
        let sent = result.findings.settled.filter { $0.outcome != .skipped }
        return result.conclusion.verdict == .offline && !sent.isEmpty && sent.allSatisfy { $0.errorClass == .dns }
    }

    /// The host names the system resolver was asked for (not proxied, not IP literals).
    static func hosts(_ plan: PathPlan) -> [String] {
        var hosts: [String] = []
        for request in plan.requests where request.resolveWithin != nil {
            if let host = URLSyntax.hostAndPort(request.url)?.host, !hosts.contains(host) { hosts.append(host) }
        }
        return hosts
    }

    struct Lookup {
        var addresses: [String: [String]] = [:]
        /// The server that answered; nil when none gave an address.
        var server: String?
        var errors: [String] = []
    }

    /// The least a server is given when several share what is left: a retransmit and the
    /// answer to it.
    static let minimumServerBudget: Duration = .milliseconds(600)

    /// The link's servers in turn, each asked every name in every family at once, until one
    /// gives addresses. Each server has a budget of its own, an equal share of what is left
    /// (at least `minimumServerBudget`), so a silent first server leaves time for the next.
    /// Only addresses a probe may be sent to are kept (`pinnable`).
    static func lookUp(_ hosts: [String], families: Set<AddressFamily>, link: LinkResolvers,
                       deadline: ContinuousClock.Instant) -> Lookup {
        var lookup = Lookup()
        let types = AddressFamily.allCases.filter(families.contains).map(DNSRecordType.init)
        let questions = hosts.flatMap { host in types.map { DNSExchange.Question(name: host, type: $0) } }
        for (position, server) in link.servers.enumerated() {
            let now = ContinuousClock.now
            guard now < deadline else {
                lookup.errors.append("\(server): not asked, no time left")
                continue
            }
            let share = now.duration(to: deadline) / (link.servers.count - position)
            let budget = min(deadline, now + max(share, minimumServerBudget))
            let outcomes = DNSExchange.ask(questions, server: server, interface: link.interface, deadline: budget)
            var failures: [String] = []
            var refused = 0
            for (question, outcome) in zip(questions, outcomes) {
                switch outcome {
                case .success(let answer) where !answer.addresses.isEmpty:
                    let usable = answer.addresses.filter(pinnable)
                    refused += answer.addresses.count - usable.count
                    if !usable.isEmpty { lookup.addresses[question.name, default: []] += usable }
                case .success:
                    break
                case .failure(let failure):
                    if !failures.contains(failure.description) { failures.append(failure.description) }
                }
            }
            if !lookup.addresses.isEmpty {
                lookup.server = server
                return lookup
            }
            if refused > 0 { failures.append("only loopback, unspecified or multicast addresses") }
            lookup.errors.append("\(server): " + (failures.isEmpty ? "no addresses" : failures.joined(separator: ", ")))
        }
        return lookup
    }

    /// An answer a probe may be pinned to (`CURLOPT_RESOLVE`): a unicast address of another
    /// host. Loopback and unspecified addresses would send the probe to a service of this
    /// machine, multicast to every host on the link, and a link-local IPv6 address names no
    /// link; a verdict must never rest on any of them.
    static func pinnable(_ address: String) -> Bool {
        guard let bytes = IPAddressText.address(address, octets: .strict), ResolverAddress.isUnicast(bytes) else { return false }
        return !(bytes.count == 16 && bytes[0] == 0xFE && bytes[1] & 0xC0 == 0x80)
    }
}
