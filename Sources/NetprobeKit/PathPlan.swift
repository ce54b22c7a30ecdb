import NetprobeCore
import NetprobeHTTP

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

    /// Families the gate let through (empty when the path is down).
    var families: Set<AddressFamily> {
        if case .pass(let families, _) = gate { return families }
        return []
    }

    /// The plain check: one path, the one the machine's own traffic takes. With -i, probes
    /// leave through the chosen interface (as NetworkManager binds its check to the device);
    /// with several, through the first the gate found a default route on. Without -4/-6 the
    /// family is left to the system (happy eyeballs).
    static func machine(_ options: CheckOptions, snapshot: PathSnapshot) -> PathPlan {
        let gate = Gate.evaluate(snapshot, families: options.families, interfaces: options.interfaces)
        let preferred = snapshot.preferredRoutes(families: options.families, interfaces: options.interfaces)
        var through: [String] = []
        if case .pass(_, let names) = gate { through = names }
        let family = options.families.count == 1 ? options.families.first : nil
        var plan = PathPlan(interface: through.first ?? preferred.first?.interface, family: family, isDefault: true, gate: gate)
        guard case .pass(let families, _) = gate else {
            plan.filtered = options.config.probes
            return plan
        }
        let wanted = options.interfaces
        let binding = wanted.isEmpty ? nil : (through.first { wanted.contains($0) } ?? wanted.first)
        plan.add(options, families: families, binding: binding, onlyInterfaces: wanted)
        plan.api = CaptivePortalAPI.discover(options, path: snapshot, families: families, through: through)
        plan.canary = DNSCanary.request(like: plan.requests.first)
        return plan
    }

    /// `--all-paths`: every (interface, family) with a default route of that family through it,
    /// each probed on its own — bound to the interface (`if!NAME`) and held to the family — and
    /// judged on its own. IPv4 first, then by metric. With no default route at all, the one
    /// down path of the plain check.
    static func every(_ options: CheckOptions, snapshot: PathSnapshot) -> [PathPlan] {
        var plans: [PathPlan] = []
        for family in AddressFamily.allCases where options.families.contains(family) {
            let preferred = snapshot.preferredRoutes(families: [family], interfaces: []).first
            var seen: Set<String> = []
            for route in snapshot.preferredRoutes(families: [family], interfaces: options.interfaces) {
                // A multipath route names no device to bind to: the plain check covers it.
                guard let name = route.interface, seen.insert(name).inserted else { continue }
                let isDefault = preferred?.interface == name && preferred?.metric == route.metric
                plans.append(single(options, snapshot: snapshot, interface: name, family: family, isDefault: isDefault))
            }
        }
        return plans.isEmpty ? [machine(options, snapshot: snapshot)] : plans
    }

    /// One path of `--all-paths`: its own gate, its own probes, API query and canary, all bound to it.
    static func single(_ options: CheckOptions, snapshot: PathSnapshot, interface: String, family: AddressFamily,
                       isDefault: Bool) -> PathPlan {
        let gate = Gate.evaluate(snapshot, families: [family], interfaces: [interface])
        var plan = PathPlan(interface: interface, family: family, isDefault: isDefault, gate: gate)
        guard case .pass = gate else {
            plan.filtered = options.config.probes
            return plan
        }
        plan.add(options, families: [family], binding: interface, onlyInterfaces: [interface])
        plan.api = CaptivePortalAPI.discover(options, path: snapshot, families: [family], through: [interface])
        plan.api?.request?.interface = interface
        plan.api?.request?.family = family
        plan.canary = DNSCanary.request(like: plan.requests.first)
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

    /// Every transfer of this path, probes first.
    var allRequests: [ProbeRequest] {
        var all = requests
        if let request = api?.request { all.append(request) }
        if let canary { all.append(canary.request) }
        return all
    }
}

extension PathSnapshot {
    /// Default routes of these families through these interfaces (all when none are named),
    /// lowest metric first: the order in which the kernel prefers them.
    func preferredRoutes(families: Set<AddressFamily>, interfaces: [String]) -> [DefaultRoute] {
        defaultRoutes
            .filter { families.contains($0.family) && (interfaces.isEmpty || ($0.interface.map(interfaces.contains) ?? false)) }
            .sorted { $0.metric < $1.metric }
    }
}
