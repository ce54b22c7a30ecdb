import NetprobeWire
/// The hop where the way out broke, on an offline verdict: the JSON `fault` key, the
/// Prometheus `fault` label and the man page's FAULTS. Code compares these cases, never strings.
public enum Fault: String, CaseIterable, Sendable {
    /// No carrier, or no usable address.
    case link
    /// No route for the destinations, or the kernel's route refuses (unreachable, prohibit, blackhole).
    case route
    /// The next hop never answered ARP/ND.
    case gateway
    /// The resolvers failed while the gateway answered.
    case dns
    /// The gateway answers; nothing beyond it does.
    case upstream
    /// The configured proxy is the hop that failed.
    case proxy
}

/// The kernel's neighbour entry state (NUD_*), as `ip neigh` names it.
public enum NeighbourState: String, Sendable, CaseIterable {
    case incomplete, reachable, stale, delay, probe, failed, noarp, permanent
}

/// A path's next hop and what the kernel's neighbour table said of it after the check's traffic.
public struct GatewayNeighbour: Sendable, Equatable {
    public var address: String
    public var interface: String?
    /// nil: the kernel holds no entry for it (nothing was sent its way, or it was never asked).
    public var state: NeighbourState?

    public init(address: String, interface: String?, state: NeighbourState?) {
        self.address = address
        self.interface = interface
        self.state = state
    }

    /// The family of its address: an ICMP error proves only a gateway of its own family answered.
    public var family: AddressFamily { address.contains(":") ? .ipv6 : .ipv4 }

    /// true: it answered and the kernel confirmed it lately (or it needs no answer: a static entry);
    /// false: asked and silent; nil: the table does not tell (no entry, or an old answer that the
    /// kernel is still confirming: STALE, DELAY, PROBE become FAILED only seconds later).
    var answers: Bool? {
        switch state {
        case .reachable?, .permanent?: true
        case .failed?, .incomplete?: false
        case .stale?, .delay?, .probe?, .noarp?, nil: nil
        }
    }
}

/// `fault` with the words that name the hop.
public struct FaultFinding: Sendable, Equatable {
    public var fault: Fault
    /// `fault_detail`: the hop and what it did ("router 198.51.100.1 on eth0: neighbour failed").
    public var detail: String
    /// The text output's first line after "offline: " ("the router 198.51.100.1 does not answer").
    public var summary: String

    public init(_ fault: Fault, detail: String, summary: String) {
        self.fault = fault
        self.detail = detail
        self.summary = summary
    }
}

/// What a path's offline verdict rests on, beside its conclusion: the link it would leave
/// through, the kernel's route refusal, its gateways' neighbour entries, the probes and the
/// resolvers asked. Plain values: the check gathers them after the round, sending nothing more.
public struct FaultEvidence: Sendable, Equatable {
    public var conclusion: Conclusion
    /// The link the path leaves (or would leave) through, when one is known.
    public var link: NetworkInterface?
    public var refusal: RouteRefusal?
    public var gateways: [GatewayNeighbour]
    public var probes: [ProbeEvidence]
    /// The servers the machine's questions leave for (a stub's upstreams when known).
    public var resolvers: [String]
    /// ICMP errors routers sent about the path's connections, in the order they came.
    public var routerErrors: [RouterError]

    public init(conclusion: Conclusion, link: NetworkInterface? = nil, refusal: RouteRefusal? = nil,
                gateways: [GatewayNeighbour] = [], probes: [ProbeEvidence] = [], resolvers: [String] = [],
                routerErrors: [RouterError] = []) {
        self.conclusion = conclusion
        self.link = link
        self.refusal = refusal
        self.gateways = gateways
        self.probes = probes
        self.resolvers = resolvers
        self.routerErrors = routerErrors
    }
}

/// From evidence to the failed hop. Rules (netprobe(1), FAULTS), first match wins:
///   not offline, or some operator answered correctly (quorum-not-met)  -> none
///   no-link, no-address                                  -> link
///   no-default-route                                     -> route
///   probes silent/refused/unresolved and every gateway with a telling entry FAILED/INCOMPLETE -> gateway
///   proxy-failed, proxy-auth-required                    -> proxy
///   resolver-blocked                                     -> dns (the network's own resolvers answer)
///   gateway answers (REACHABLE/PERMANENT, or a router's ICMP error came back; none failed):
///       dns-failed, or every probe timed out before its name resolved -> dns
///       timeout, connect-failed                          -> upstream (naming the router that
///                                                           sent the error, when one did)
///   anything else (TLS, HTTP, gateways disagreeing or not telling) -> none: say so rather than guess.
public enum FaultLocator {
    public static func locate(_ evidence: FaultEvidence) -> FaultFinding? {
        let conclusion = evidence.conclusion
        guard conclusion.verdict == .offline else { return nil }
        switch conclusion.reason {
        case .noLink, .noAddress: return link(conclusion.reason, evidence.link)
        case .noDefaultRoute: return route(evidence.refusal)
        default: break
        }
        let silentReasons: Set<Reason> = [.dnsFailed, .timeout, .connectFailed, .proxyFailed]
        let telling = evidence.gateways.filter { $0.answers != nil }
        if silentReasons.contains(conclusion.reason), let first = telling.first, telling.allSatisfy({ $0.answers == false }) {
            return FaultFinding(.gateway, detail: "router \(hop(first)): neighbour \(first.state?.rawValue ?? "none")",
                                summary: "the router \(first.address) does not answer")
        }
        switch conclusion.reason {
        case .proxyFailed, .proxyAuthRequired: return proxy(evidence.probes)
        case .resolverBlocked:
            let servers = evidence.resolvers.joined(separator: " ")
            return FaultFinding(.dns, detail: "configured resolver \(servers): no answer on this network; the network's own resolvers answer",
                                summary: "the DNS server \(servers) does not answer on this network")
        default: break
        }
        guard !evidence.gateways.contains(where: { $0.answers == false }) else { return nil }
        // A router's error proves the packets left through the gateway of its family, whatever its
        // entry says: an ICMPv6 error says nothing of the IPv4 gateway, nor ICMP of the IPv6 one.
        // Port unreachable is the destination itself refusing: it says nothing of the way.
        let errors = evidence.routerErrors.filter { $0.kind != .portUnreachable }
        let answering = evidence.gateways.first { $0.answers == true }
            ?? evidence.gateways.first { gateway in errors.contains { $0.family == gateway.family } }
        let router = answering.map { "router \(hop($0)): neighbour \($0.state?.rawValue ?? "none")" }
        switch conclusion.reason {
        case .dnsFailed:
            guard let answering, let router else { return nil }
            return dns(evidence.resolvers, singular: "resolves no names", plural: "resolve no names",
                       detail: "no address for the probe names", router: router, address: answering.address)
        case .timeout where namesUnresolved(evidence.probes):
            guard let answering, let router else { return nil }
            return dns(evidence.resolvers, singular: "does not answer", plural: "do not answer",
                       detail: "no answer before the deadline", router: router, address: answering.address)
        case .timeout, .connectFailed:
            return upstream(conclusion.reason, gateways: evidence.gateways, answering: answering, router: router, errors: errors)
        default:
            return nil
        }
    }

    /// Nothing beyond the gateway answers; the routers that said why are named (a few at most).
    /// The first error is set beside the gateway of its own family, never the other one's.
    static func upstream(_ reason: Reason, gateways: [GatewayNeighbour], answering: GatewayNeighbour?, router: String?,
                         errors: [RouterError]) -> FaultFinding? {
        var said: [RouterError] = []
        for error in errors where !said.contains(where: { $0.router == error.router && $0.kind == error.kind }) && said.count < 3 {
            said.append(error)
        }
        let heard = said.map { "\($0.router) sent \($0.words)" }.joined(separator: ", ")
        let beyond = router == nil ? reason.rawValue : "beyond it: \(reason.rawValue)"
        let detail = [router, beyond, heard.isEmpty ? nil : heard].compactMap { $0 }.joined(separator: "; ")
        guard let first = said.first else {
            guard let gateway = answering?.address else { return nil }
            return FaultFinding(.upstream, detail: detail, summary: "the router \(gateway) answers, but nothing beyond it does")
        }
        let own = answering.flatMap { $0.family == first.family ? $0 : nil } ?? gateways.first { $0.family == first.family }
        guard let gateway = own?.address else {
            return FaultFinding(.upstream, detail: detail, summary: "the router \(first.router) reports: \(first.words)")
        }
        if first.router == gateway {
            return FaultFinding(.upstream, detail: detail, summary: "the router \(gateway) answers, but reports: \(first.words)")
        }
        return FaultFinding(.upstream, detail: detail,
                            summary: "the router \(gateway) answers; \(first.router) beyond it reports: \(first.words)")
    }

    /// The resolvers' fault, worded for one server, several, or none known.
    static func dns(_ servers: [String], singular: String, plural: String, detail: String, router: String,
                    address: String) -> FaultFinding {
        let list = servers.joined(separator: " ")
        let subject = servers.count == 1 ? "the DNS server \(list) \(singular)"
            : servers.isEmpty ? "the DNS servers \(plural)" : "the DNS servers \(list) \(plural)"
        return FaultFinding(.dns, detail: "resolver \(servers.isEmpty ? "the configured resolvers" : list): \(detail); \(router)",
                            summary: "\(subject) (the router \(address) answers)")
    }

    /// Every probe that failed timed out still waiting for its host name (direct, no address,
    /// no name-lookup time): the resolvers were silent, whatever lies beyond them.
    static func namesUnresolved(_ probes: [ProbeEvidence]) -> Bool {
        let failed = probes.filter { $0.outcome == .failure }
        return !failed.isEmpty && failed.allSatisfy { evidence in
            guard let seen = evidence.observation, seen.transportError?.kind == .timeout else { return false }
            return seen.proxy == nil && seen.remoteAddress == nil && seen.timings.dnsMs == nil
        }
    }

    static func hop(_ gateway: GatewayNeighbour) -> String {
        gateway.address + (gateway.interface.map { " on \($0)" } ?? "")
    }

    static func link(_ reason: Reason, _ link: NetworkInterface?) -> FaultFinding {
        guard let link else {
            return reason == .noLink
                ? FaultFinding(.link, detail: "no interface is up with carrier", summary: "no network link is up")
                : FaultFinding(.link, detail: "no usable interface has a global address", summary: "no network link has an address")
        }
        if reason == .noAddress {
            return FaultFinding(.link, detail: "\(link.name): no global address", summary: "\(link.name) has no address")
        }
        if !link.up {
            return FaultFinding(.link, detail: "\(link.name): down", summary: "\(link.name) is down")
        }
        return FaultFinding(.link, detail: "\(link.name): no carrier (\(link.operstate))", summary: "\(link.name) has no carrier")
    }

    static func route(_ refusal: RouteRefusal?) -> FaultFinding {
        switch refusal {
        case .unreachable?, .blackhole?, .prohibit?:
            let kind = refusal?.rawValue ?? ""
            return FaultFinding(.route, detail: "the kernel's route to the Internet is \(kind)",
                                summary: "the kernel refuses the route to the Internet (\(kind) route)")
        default:
            return FaultFinding(.route, detail: "no route to the Internet", summary: "there is no route to the Internet")
        }
    }

    /// The proxy the failed probes went through, and what it did.
    static func proxy(_ probes: [ProbeEvidence]) -> FaultFinding {
        let failed = probes.compactMap(\.observation).filter { $0.proxy != nil }
        guard let seen = failed.first(where: { $0.proxyAuthRequired || $0.transportError?.kind == .proxy }) ?? failed.first,
              let url = seen.proxy else {
            return FaultFinding(.proxy, detail: "the proxy failed", summary: "the proxy does not relay")
        }
        let address = seen.proxyAddress.map { " (\($0))" } ?? ""
        let what: String
        if seen.proxyAuthRequired {
            what = "asks for credentials"
        } else if let status = seen.proxyConnectStatus, status != 200 {
            what = "refuses to relay (CONNECT \(status))"
        } else {
            switch seen.transportError?.cause {
            case .dns?: what = "its name does not resolve"
            case .refused?: what = "refuses connections"
            case .timeout?: what = "does not answer"
            case .unreachable?: what = "cannot be reached"
            default: what = "does not relay"
            }
        }
        return FaultFinding(.proxy, detail: "proxy \(url)\(address): \(what)", summary: "the proxy \(url) \(what)")
    }
}
