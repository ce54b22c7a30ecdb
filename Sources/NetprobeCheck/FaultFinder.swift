import NetprobeWire
import NetprobeVerdict
import NetprobeOutput
import NetprobeSystem
import NetprobeNetwork

/// Gathers, after the round and only for offline paths, what `FaultLocator` needs: the path's
/// link, the kernel's route refusal, its gateways' neighbour entries (the one dump of the check,
/// `NetworkFinder.neighbours`, taken only when a gate passed: its instant answers stay instant), and
/// the ICMP errors routers sent about its connections. Nothing is sent.
enum FaultFinder {
    static func locate(_ paths: inout [PathReport], results: [Round.PathResult], snapshot: PathSnapshot,
                       neighbours: [NeighbourTable.Entry], routerErrors: [RouterError] = []) {
        for index in paths.indices where paths[index].conclusion.verdict == .offline {
            let plan = results[index].plan
            let gateways = NeighbourTable.lookUp(Self.gateways(plan, snapshot: snapshot), in: neighbours)
            let evidence = FaultEvidence(
                conclusion: paths[index].conclusion, link: link(plan, snapshot: snapshot),
                refusal: snapshot.kernelRoutes.lazy.filter { plan.family == nil || $0.family == plan.family }.compactMap(\.refusal).first,
                gateways: gateways, probes: paths[index].probes, resolvers: resolvers(paths[index], snapshot: snapshot),
                routerErrors: routerErrors.filter { Self.belongs($0, to: plan) })
            paths[index].fault = FaultLocator.locate(evidence)
        }
    }

    /// A router's error is a path's when its family is the path's and its connection was bound to
    /// the path's interface (or to none: the plain check's one path).
    static func belongs(_ error: RouterError, to plan: PathPlan) -> Bool {
        (plan.family == nil || plan.family == error.family) && (error.interface == nil || error.interface == plan.interface)
    }

    /// The link the path leaves (or would leave) through: the one it is named after, else the
    /// first link a default route of its families goes through.
    static func link(_ plan: PathPlan, snapshot: PathSnapshot) -> NetworkInterface? {
        if let name = plan.interface, let link = snapshot.interfaces.first(where: { $0.name == name }) { return link }
        let families = plan.family.map { [$0] } ?? AddressFamily.allCases
        let index = snapshot.defaultRoutes.first { families.contains($0.family) && $0.interfaceIndex != nil }?.interfaceIndex
        return snapshot.interfaces.first { $0.index == index && $0.type != .loopback }
    }

    /// The next hop of each family the gate let through: the kernel's own route when it leaves
    /// through the path's link (or the path is the unbound machine path), else a default route on it.
    static func gateways(_ plan: PathPlan, snapshot: PathSnapshot) -> [(address: String, interface: String?, index: Int?)] {
        var out: [(address: String, interface: String?, index: Int?)] = []
        for family in AddressFamily.allCases where plan.families.contains(family) {
            if let kernel = snapshot.kernelRoute(family), let gateway = kernel.gateway,
               plan.interface == nil || kernel.interface == plan.interface {
                out.append((gateway, kernel.interface, kernel.interfaceIndex))
            } else if let route = snapshot.defaultRoutes.first(where: {
                $0.family == family && $0.gateway != nil && $0.interface == plan.interface }), let gateway = route.gateway {
                out.append((gateway, route.interface, route.interfaceIndex))
            }
        }
        return out
    }

    /// The resolvers the probe names were asked of: the link's when the answer rests on them
    /// (never for `resolver-blocked`, which is about the configured ones), else those the
    /// machine's questions leave for.
    static func resolvers(_ path: PathReport, snapshot: PathSnapshot) -> [String] {
        if path.resolvers.used == .link, path.conclusion.reason != .resolverBlocked, let server = path.resolvers.linkServer {
            return [server]
        }
        return snapshot.dns.effectiveServers
    }
}
