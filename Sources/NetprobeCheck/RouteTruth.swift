import NetprobeWire
import NetprobeVerdict
import NetprobeOutput
import NetprobeSystem
import NetprobeNetwork

/// The route each probe really took. Before any address is known, the path is found with
/// stand-in destinations (`RouteAnswer.representativeDestination`), which a VPN routing just
/// those hosts into its tunnel (DNS-leak protection) can make name the wrong device. Once the
/// probes have connected, the kernel is asked about each address they connected to (the
/// proxy's, through a proxy): that route is the probe's `interface`, the plain check's path is
/// named after the device its probes used, and with `--all-paths` the paths whose devices the
/// kernel routes the probes' destinations through are the machine's own (`default`).
enum RouteTruth {
    static func apply(_ results: [Round.PathResult], allPaths: Bool, snapshot: PathSnapshot,
                      source: any PathSource) -> [Round.PathResult] {
        let destinations = results.flatMap { $0.findings.settled.compactMap(destination) }
        guard !destinations.isEmpty else { return results }
        var unique: [String] = []
        for destination in destinations where !unique.contains(destination) { unique.append(destination) }
        let routes = source.routes(to: unique, interfaces: snapshot.interfaces)
        var out = results.map { annotate($0, routes: routes) }
        if allPaths {
            out = chooseDefaults(out, routes: routes)
        }
        return out
    }

    /// The address the probe's traffic went to: the far side's, or the proxy's.
    static func destination(_ evidence: ProbeEvidence) -> String? {
        guard let observation = evidence.observation else { return nil }
        return observation.proxy != nil ? observation.proxyAddress : observation.remoteAddress
    }

    /// Each probe's device (its binding, else the kernel's route for its destination); an
    /// unbound path named after the device most of its probes used.
    static func annotate(_ result: Round.PathResult, routes: [String: RouteAnswer]) -> Round.PathResult {
        var out = result
        var bindings: [String: String] = [:]
        for (request, spec) in zip(result.plan.requests, result.plan.specs) {
            if let interface = request.interface { bindings[spec.name] = interface }
        }
        var used: [String] = []
        out.findings.settled = result.findings.settled.map { evidence in
            guard let address = destination(evidence),
                  let device = bindings[evidence.spec.name] ?? routes[address]?.interface else { return evidence }
            used.append(device)
            return evidence.routed(through: device)
        }
        let bound = !bindings.isEmpty
        if !bound, let device = majority(used, preferring: result.plan.interface) {
            out.plan.interface = device
        }
        return out
    }

    /// With `--all-paths`, per family: the device the kernel routes most of the probes'
    /// destinations through (unbound, as the machine's own traffic goes) makes its path the
    /// machine's own. A family whose destinations go through no probed path keeps the
    /// stand-in's answer.
    static func chooseDefaults(_ results: [Round.PathResult], routes: [String: RouteAnswer]) -> [Round.PathResult] {
        var out = results
        for family in AddressFamily.allCases {
            let members = out.indices.filter { out[$0].plan.family == family && out[$0].plan.interface != nil }
            let devices = members.flatMap { out[$0].findings.settled.compactMap(destination) }.compactMap { routes[$0]?.interface }
            let current = members.first { out[$0].plan.isDefault }.flatMap { out[$0].plan.interface }
            guard let device = majority(devices, preferring: current),
                  members.contains(where: { out[$0].plan.interface == device }) else { continue }
            for index in members { out[index].plan.isDefault = out[index].plan.interface == device }
        }
        return out
    }

    /// The most common name; a tie goes to `preferring` when it is among the tied, else to the
    /// first of them met.
    static func majority(_ names: [String], preferring: String?) -> String? {
        var counts: [(name: String, count: Int)] = []
        for name in names {
            if let index = counts.firstIndex(where: { $0.name == name }) { counts[index].count += 1 } else { counts.append((name, 1)) }
        }
        guard let best = counts.map(\.count).max() else { return nil }
        let tied = counts.filter { $0.count == best }.map(\.name)
        if let preferring, tied.contains(preferring) { return preferring }
        return tied.first
    }
}
