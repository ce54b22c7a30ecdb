import NetprobeWire
/// The path gate: what the kernel knows can only ever prove "offline".
/// No default route, no usable link under it, or no global address on it means
/// nothing can reach the Internet, so netprobe answers at once and sends nothing.
public enum GateResult: Sendable, Equatable {
    /// Probing may proceed in these families, over these interfaces.
    case pass(families: Set<AddressFamily>, interfaces: [String])
    /// Always one of the path-down reasons (`Reason.isPathDown`).
    case offline(Reason)
}

public enum Gate {
    /// Follows the way a packet would leave — route, then the link it uses, then the address
    /// it would carry — and names the first layer that is missing. With no interface named,
    /// the way is the kernel's answer for the machine's ordinary traffic (`kernelRoutes`);
    /// with interfaces named (`-i`, or one path of `--all-paths`), it is a default route
    /// through one of them, in any table, since probes bound to a device leave through it.
    public static func evaluate(_ snapshot: PathSnapshot, families: Set<AddressFamily>, interfaces wanted: [String] = []) -> GateResult {
        wanted.isEmpty ? kernelChosen(snapshot, families: families) : bound(snapshot, families: families, interfaces: wanted)
    }

    /// The machine's own way out, per family, as the kernel answered `ip route get`.
    static func kernelChosen(_ snapshot: PathSnapshot, families: Set<AddressFamily>) -> GateResult {
        var passed: Set<AddressFamily> = []
        var through: [String] = []
        var furthest = Reason.noDefaultRoute
        for family in AddressFamily.allCases where families.contains(family) {
            switch layer(reachedBy: snapshot.kernelRoute(family), family: family, in: snapshot) {
            case .open(let name):
                passed.insert(family)
                if !through.contains(name) { through.append(name) }
            case .missing(let missing):
                if depth(missing) > depth(furthest) { furthest = missing }
            }
        }
        return passed.isEmpty ? .offline(furthest) : .pass(families: passed, interfaces: through)
    }

    /// A way out through this link, or the first layer missing on the way.
    private enum Layer {
        case open(String)
        case missing(Reason)
    }

    private static func layer(reachedBy route: RouteAnswer?, family: AddressFamily,
                              in snapshot: PathSnapshot) -> Layer {
        guard let route, route.refusal == nil, let index = route.interfaceIndex else {
            // No way out. A default route whose link is down explains it better than "no route".
            let deadLink = snapshot.defaultRoutes.contains { defaultRoute in
                defaultRoute.family == family && links(for: defaultRoute, in: snapshot.interfaces)
                    .contains { $0.type != .loopback && !$0.usable }
            }
            return .missing(deadLink ? .noLink : .noDefaultRoute)
        }
        guard let link = snapshot.interfaces.first(where: { $0.index == index }), link.type != .loopback, link.usable else {
            return .missing(.noLink)
        }
        guard link.addresses.contains(where: { $0.family == family && ($0.scope == .global || $0.scope == .site) }) else {
            return .missing(.noAddress)
        }
        return .open(link.name)
    }

    /// How far a packet got: a missing address is further than a missing link, which is
    /// further than no route at all.
    private static func depth(_ reason: Reason) -> Int {
        switch reason {
        case .noLink: 1
        case .noAddress: 2
        default: 0
        }
    }

    /// A default route through one of the named interfaces.
    static func bound(_ snapshot: PathSnapshot, families: Set<AddressFamily>, interfaces wanted: [String]) -> GateResult {
        let candidates = snapshot.interfaces.filter { link in
            link.type != .loopback && (wanted.isEmpty || wanted.contains(link.name))
        }
        if !wanted.isEmpty && candidates.isEmpty { return .offline(.noLink) }
        let candidateIndexes = Set(candidates.map(\.index))

        // A route without an output device (multipath) may leave through any candidate.
        let routes = snapshot.defaultRoutes.filter { route in
            families.contains(route.family) && (route.interfaceIndex.map(candidateIndexes.contains) ?? !candidates.isEmpty)
        }
        guard !routes.isEmpty else { return .offline(.noDefaultRoute) }

        let linked = routes.filter { !links(for: $0, in: candidates).filter(\.usable).isEmpty }
        guard !linked.isEmpty else { return .offline(.noLink) }

        let addressed = linked.filter { route in
            links(for: route, in: candidates).filter(\.usable).contains { link in
                link.addresses.contains { $0.family == route.family && ($0.scope == .global || $0.scope == .site) }
            }
        }
        guard !addressed.isEmpty else { return .offline(.noAddress) }

        var through: [String] = []
        for route in addressed {
            if let name = route.interface, !through.contains(name) { through.append(name) }
        }
        return .pass(families: Set(addressed.map(\.family)), interfaces: through)
    }

    private static func links(for route: DefaultRoute, in candidates: [NetworkInterface]) -> [NetworkInterface] {
        guard let index = route.interfaceIndex else { return candidates }
        return candidates.filter { $0.index == index }
    }
}
