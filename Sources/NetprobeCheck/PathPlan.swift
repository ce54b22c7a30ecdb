import NetprobeWire
import NetprobeVerdict
import NetprobeOutput
import NetprobeSystem
import NetprobeNetwork

/// One path to answer for and what to send on it: the probes, the Captive Portal API query of
/// its interface and the `.invalid` canary, each request bound the way the path requires.
struct PathPlan {
    var interface: String?
    var family: AddressFamily?
    var isDefault: Bool
    var gate: GateResult
    var specs: [ProbeSpec] = []
    var requests: [ProbeRequest] = []
    /// Probes excluded by -4/-6/-i, or by a family or interface the path does not have.
    var filtered: [ProbeSpec] = []
    var api: CaptivePortalAPI.Query?
    var canary: (request: ProbeRequest, host: String)?
    /// The link's own resolvers, when its DHCP/RA client recorded some that differ from the
    /// configured ones: asked if the configured ones fail for the probe names.
    var linkResolvers: LinkResolvers?
    /// Lease files passed over for what they are (too large, not a regular file), "PATH: why".
    var leaseProblems: [String] = []
    /// The leases of the path's links as the plan read them (owners asked), when it did: what
    /// else the check needs of them (the DHCP server to ask) is taken from here, not read again.
    var leases: [LeaseReader.Lease]?
    /// Whose answers the probes' addresses come from (`ProbeObservation.resolver`).
    var resolver = "configured"
    /// What watch remembers of the network the path is on, when it remembers it
    /// (`NetworkMemory`): its portal's login URL is offered to the engine, and a DHCPINFORM it
    /// already answered or ignored is not sent again.
    var known: NetworkMemory.Entry?

    /// Families the gate let through (empty when the path is down).
    var families: Set<AddressFamily> {
        if case .pass(let families, _) = gate { return families }
        return []
    }

    /// The plain check: one path, the one the machine's own traffic takes, as the kernel
    /// routes it (`ip route get`, with policy rules and tables applied). With -i, probes
    /// leave through the chosen interface (as NetworkManager binds its check to the device);
    /// with several, through the first the gate found a default route on. Without -4/-6 the
    /// family is left to the system (happy eyeballs).
    static func machine(_ options: CheckOptions, snapshot: PathSnapshot) -> PathPlan {
        let gate = Gate.evaluate(snapshot, families: options.families, interfaces: options.interfaces)
        var through: [String] = []
        if case .pass(_, let names) = gate { through = names }
        let family = options.families.count == 1 ? options.families.first : nil
        // A path that is down is still named after the way the kernel would have taken.
        let named = through.first ?? (options.interfaces.isEmpty ? snapshot.kernelInterface(options.families) : options.interfaces.first)
        var plan = PathPlan(interface: named, family: family, isDefault: true, gate: gate)
        guard case .pass(let families, _) = gate else {
            plan.filtered = options.config.probes
            return plan
        }
        let wanted = options.interfaces
        let binding = wanted.isEmpty ? nil : (through.first { wanted.contains($0) } ?? wanted.first)
        plan.add(options, families: families, binding: binding, onlyInterfaces: wanted)
        let reading = plan.readLeases(options, snapshot: snapshot, through: through)
        plan.api = CaptivePortalAPI.discover(options, leases: reading, families: families, through: through)
        plan.canary = DNSCanary.request(like: plan.requests.first)
        plan.watchResolvers(options, snapshot: snapshot, leases: reading)
        return plan
    }

    /// How long the configured resolvers may stay silent for a probe name while the link's
    /// own could be asked instead: a portal that drops foreign DNS would otherwise hold the
    /// check for the system resolver's own time-outs (5 s and more).
    static let configuredResolverPatience = 1.0

    /// The leases of the path's links, read once for the plan (the owners asked once): the
    /// Captive Portal API URI, the link's resolvers, the DHCPINFORM's server and the DHCP server
    /// that names the path's network (`NetworkFinder`) all come from it, whatever the options.
    mutating func readLeases(_ options: CheckOptions, snapshot: PathSnapshot, through: [String]) -> LeaseReader.Reading {
        let reading = options.leases.read(path: snapshot, through: through)
        leaseProblems = reading.problems
        leases = reading.leases
        return reading
    }

    /// Finds the link's own resolvers and, when the machine's questions do not already go to
    /// them, gives every probe that the system resolver looks up a resolve deadline, so that
    /// silence from the configured resolvers is a DNS failure after `configuredResolverPatience`.
    mutating func watchResolvers(_ options: CheckOptions, snapshot: PathSnapshot, leases reading: LeaseReader.Reading) {
        guard options.askLinkResolvers else { return }
        guard let link = options.leases.resolvers(reading), !Self.reaches(link, snapshot.dns) else { return }
        linkResolvers = link
        for index in requests.indices where requests[index].proxy == nil && Self.looksUpName(requests[index].url) {
            requests[index].resolveWithin = Self.configuredResolverPatience
        }
    }

    /// Whether the machine's questions already go to the link's resolvers. A local stub is
    /// judged by what it forwards to, never by its own loopback address (which no link
    /// announces): its upstreams must include every one of the link's resolvers, reached in
    /// plain DNS (a stub that speaks only DNS over TLS to them fails where a network drops TLS,
    /// and the link's resolvers must then be asked directly). Without a stub, or with one whose
    /// upstreams are unknown, the configured servers must be the link's.
    static func reaches(_ link: LinkResolvers, _ dns: DNSConfiguration) -> Bool {
        if dns.localStub && !dns.upstreams.isEmpty {
            return dns.upstreamsTransport != "tls" && Set(link.servers).isSubset(of: dns.upstreams)
        }
        return Set(link.servers) == Set(dns.servers)
    }

    /// The URL's host is a name (not an IP literal): the system resolver is asked for it.
    static func looksUpName(_ url: String) -> Bool {
        guard let host = URLSyntax.hostAndPort(url)?.host else { return false }
        let bare = host.hasPrefix("[") ? String(host.dropFirst().dropLast()) : host
        return IPAddressText.address(bare, zone: .urlEncoded) == nil
    }

    /// One path of `--all-paths`, before it is planned: where it leaves, whether it is the
    /// machine's own (the kernel routes the family's ordinary traffic through it), and its gate.
    /// No interface and no family: the plain check's path, down.
    struct Candidate: Equatable {
        var path: PathKey
        var isDefault: Bool
        var gate: GateResult
    }

    /// The paths of `--all-paths`: every (interface, family) with a default route of that
    /// family through it, in any table, and the kernel's own way out where no default route
    /// names it (a VPN's 0.0.0.0/1 and 128.0.0.0/1). IPv4 first; within a family the kernel's
    /// own path first, then the others in the kernel's order. The machine's own path is gated
    /// as the plain check gates it (the kernel's answer), so the two never disagree about it;
    /// another path by its default route. When none is the machine's own (the kernel routes its
    /// traffic nowhere), the plain check's down path is added, so that the overall answer is
    /// the plain check's; with no path at all, it alone.
    static func candidates(_ options: CheckOptions, snapshot: PathSnapshot) -> [Candidate] {
        var keys: [Candidate] = []
        let wanted = options.interfaces
        for family in AddressFamily.allCases where options.families.contains(family) {
            var names: [String] = []
            let own = snapshot.kernelRoute(family).flatMap { $0.refusal == nil ? $0.interface : nil }
            if let own { names.append(own) }
            for route in snapshot.defaultRoutes where route.family == family {
                // A multipath route names no device to bind to: the kernel's answer covers it.
                if let name = route.interface, !names.contains(name) { names.append(name) }
            }
            for name in names where wanted.isEmpty || wanted.contains(name) {
                let isDefault = name == own
                let gate = Gate.evaluate(snapshot, families: [family], interfaces: isDefault ? [] : [name])
                keys.append(Candidate(path: PathKey(interface: name, family: family), isDefault: isDefault, gate: gate))
            }
        }
        if keys.isEmpty || (wanted.isEmpty && !keys.contains(where: \.isDefault)) {
            keys.append(Candidate(path: PathKey(), isDefault: true,
                                  gate: Gate.evaluate(snapshot, families: options.families, interfaces: wanted)))
        }
        return keys
    }

    /// `--all-paths`: every path of `candidates`, each probed on its own — bound to the interface
    /// (`if!NAME`) and held to the family — and judged on its own.
    static func every(_ options: CheckOptions, snapshot: PathSnapshot) -> [PathPlan] {
        candidates(options, snapshot: snapshot).map { candidate in
            guard let interface = candidate.path.interface, let family = candidate.path.family else {
                return machine(options, snapshot: snapshot)
            }
            return single(options, snapshot: snapshot, candidate: candidate, interface: interface, family: family)
        }
    }

    /// One path of `--all-paths`: its own probes, API query and canary, all bound to it.
    static func single(_ options: CheckOptions, snapshot: PathSnapshot, candidate: Candidate, interface: String,
                       family: AddressFamily) -> PathPlan {
        var plan = PathPlan(interface: interface, family: family, isDefault: candidate.isDefault, gate: candidate.gate)
        guard case .pass = candidate.gate else {
            plan.filtered = options.config.probes
            return plan
        }
        plan.add(options, families: [family], binding: interface, onlyInterfaces: [interface])
        let reading = plan.readLeases(options, snapshot: snapshot, through: [interface])
        plan.api = CaptivePortalAPI.discover(options, leases: reading, families: [family], through: [interface])
        plan.api?.request?.interface = interface
        plan.api?.request?.family = family
        plan.canary = DNSCanary.request(like: plan.requests.first)
        plan.watchResolvers(options, snapshot: snapshot, leases: reading)
        return plan
    }

    /// Adds the probes that fit these families and interfaces, bound to `binding`.
    mutating func add(_ options: CheckOptions, families: Set<AddressFamily>, binding: String?, onlyInterfaces wanted: [String]) {
        let config = options.config
        for spec in config.probes {
            if let family = spec.family, !families.contains(family) {
                filtered.append(spec)
                continue
            }
            if let interface = spec.interface, !wanted.isEmpty, !wanted.contains(interface) {
                filtered.append(spec)
                continue
            }
            var request = ProbeRequest(name: spec.name, url: spec.url, timeout: min(config.probeTimeout, options.timeout))
            request.family = spec.family ?? (families.count == 1 ? families.first : nil)
            request.interface = spec.interface ?? binding
            request.maxBodyBytes = config.maxBodyBytes
            request.caBundle = options.caBundle
            // Proxy settings are checked when the command starts; a URL here cannot fail them.
            request.proxy = (try? options.proxy.proxy(for: spec.url)) ?? nil
            requests.append(request)
            specs.append(spec)
        }
    }
}

extension PathSnapshot {
    /// The interface the kernel routes the first of these families through, if any.
    func kernelInterface(_ families: Set<AddressFamily>) -> String? {
        AddressFamily.allCases.lazy.filter(families.contains).compactMap { self.kernelRoute($0)?.interface }.first
    }
}
