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
    /// Follows the way a packet would leave — default route, then the link it uses, then
    /// the address it would carry — and names the first layer that is missing.
    public static func evaluate(_ snapshot: PathSnapshot, families: Set<AddressFamily>, interfaces wanted: [String] = []) -> GateResult {
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
