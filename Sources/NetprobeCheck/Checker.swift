#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import NetprobeWire
import NetprobeVerdict
import NetprobeOutput
import NetprobeSystem
import NetprobeNetwork

/// One check, start to finish: path snapshot -> the paths to answer for -> one round of
/// concurrent transfers, each answer concluded as it lands -> stop as soon as every path's
/// verdict is final -> report, whose overall answer is one of the paths'.
public final class Checker {
    private let source: any PathSource
    private let makeRunner: () throws(CheckError) -> any TransferRunner
    private var runner: (any TransferRunner)?
    /// The gates the last check saw (`gateMoved`).
    private(set) var lastGates: [PathGate]?
    /// How the link's resolvers are asked (tests answer for them).
    var linkLookUp: LinkResolverFallback.LookUp = LinkResolverFallback.lookUp(_:families:link:deadline:)
    /// How the network is asked by DHCPINFORM: only on the kernel's own paths (a scripted
    /// snapshot names interfaces of no network), unless a test answers for it.
    var informAsk: DHCPInformFallback.Ask?
    /// The leases whose server this checker asked and saw no answer from: not asked again.
    var informMemory = InformMemory()
    /// The gateways' link-layer addresses the last checks saw (`NetworkFinder.GatewayMemory`).
    var gatewayMemory = NetworkFinder.GatewayMemory()
    /// Whether each check notes what the lease and link state files said (`leaseMoved`): set by
    /// a caller that watches those files; a one-shot check reads them once, for its own use.
    public var tracksLeases = false
    /// What the lease and link state files said at the last check (`leaseMoved`).
    var lastLeases: LeaseFacts?
    /// The addresses of the interfaces the last check's gates let probes through: a socket
    /// leaving from one of them travels the path the verdict rests on.
    public private(set) var lastPathAddresses: Set<[UInt8]> = []
    /// The one connection over which the link's owners are asked, by every check of this
    /// checker and between them (`leaseMoved`): kept for a `wait` or a `watch`, within each
    /// check's deadline (`OwnerBus`).
    var ownerBus = OwnerBus()
    /// What each network taught this checker's checks (`NetworkMemory`): a watch loads it from
    /// its state directory and keeps it there; a one-shot check starts with none.
    public var networkMemory = NetworkMemory()

    /// `source` and `makeRunner` default to the kernel and libcurl; the runner is made on the
    /// first round that sends anything, and reused by the rounds after it (wait and watch).
    public init(source: any PathSource = KernelPaths(),
                makeRunner: @escaping () throws(CheckError) -> any TransferRunner = Checker.libcurl) {
        self.source = source
        self.makeRunner = makeRunner
        if source is KernelPaths {
            informAsk = { interface, address, hardware, server, deadline in
                DHCPInformFallback.ask(interface, address, hardware, server, deadline)
            }
        }
    }

    public static func libcurl() throws(CheckError) -> any TransferRunner {
        do {
            return try ProbeRunner()
        } catch {
            throw .http(error.description)
        }
    }

    public func snapshot() throws(CheckError) -> PathSnapshot {
        try source.snapshot()
    }

    /// The snapshot `path` shows: the stub's upstreams as its owner says them over D-Bus, as a
    /// check whose probes go out asks them, so that both name the same servers in the same
    /// words. Nothing is sent to the network; the owners are asked within `timeout` seconds.
    public func describedSnapshot(owners: LinkOwners = .all, timeout: Double = 1) throws(CheckError) -> PathSnapshot {
        var snapshot = try source.snapshot()
        var owners = owners
        owners.bus = ownerBus
        ownerBus.beginCheck(deadline: .now + .milliseconds(Int64(timeout * 1000)))
        defer { ownerBus.endCheck() }
        snapshot.dns = StubUpstreams.asked(snapshot.dns, interfaces: snapshot.interfaces, owners: owners)
        return snapshot
    }

    public func run(_ options: CheckOptions) throws(CheckError) -> Report {
        let clock = ContinuousClock()
        let start = clock.now
        let timestamp = Date()
        let deadline = start.advanced(by: .milliseconds(Int64(options.timeout * 1000)))
        let options = asking(options)
        ownerBus.beginCheck(deadline: deadline)
        defer { ownerBus.endCheck() }
        let wireBefore = wireTotals
        _ = runner?.takeRouterErrors()  // an earlier check's, closed late: not this check's evidence
        var snapshot = try source.snapshot()
        lastGates = Self.gates(options, snapshot: snapshot)
        // The stub's owner is asked what it forwards to only when probes will go out.
        if options.askLinkResolvers, lastGates?.contains(where: { $0.open != nil }) == true {
            snapshot.dns = StubUpstreams.asked(snapshot.dns, interfaces: snapshot.interfaces, owners: options.leases.owners)
        }
        if tracksLeases, let gates = lastGates { lastLeases = Self.leaseFacts(options, snapshot: snapshot, gates: gates) }
        lastPathAddresses = Self.addresses(of: lastGates ?? [], in: snapshot)
        var plans = options.allPaths ? PathPlan.every(options, snapshot: snapshot) : [PathPlan.machine(options, snapshot: snapshot)]
        let recalled = recall(&plans, snapshot: snapshot)
        // A lean re-check that confirmed is the check; anything else, and the full round runs.
        let lean = try LeanRecheck.run(plans, options: options, memory: networkMemory, at: timestamp, started: start,
                                       deadline: deadline, runner: transferRunner)
        var results: [Round.PathResult]
        if let lean {
            results = lean
        } else {
            results = try fullRound(plans, options: options, snapshot: snapshot, started: start, deadline: deadline)
        }
        results = RouteTruth.apply(results, allPaths: options.allPaths, snapshot: snapshot, source: source)
        var paths = results.map { PathReport($0, config: options.config, started: start) }
        if lean != nil { for index in paths.indices { LeanRecheck.complete(&paths[index], config: options.config) } }
        // A lean check sent only to a network whose gateway the table already named before it:
        // that read serves; after a full round the table is read again (its traffic may have
        // made the kernel resolve a gateway it had no entry for).
        let neighbours = lean != nil ? recalled ?? [] : NetworkFinder.neighbours(results, source: source)
        NetworkFinder.identify(&paths, results: results, snapshot: snapshot, neighbours: neighbours, memory: &gatewayMemory)
        for path in paths { networkMemory.learn(path, full: lean == nil, at: timestamp) }
        FaultFinder.locate(&paths, results: results, snapshot: snapshot, neighbours: neighbours,
                           routerErrors: runner?.takeRouterErrors() ?? [])
        // After the verdict, which it never changes: only an IPv6-only machine asks, once.
        snapshot.nat64 = NAT64Discovery.discover(snapshot, deadline: deadline)
        var report = finish(paths, snapshot: snapshot, started: start, timestamp: timestamp, wireBefore: wireBefore)
        report.lean = lean != nil
        return report
    }

    /// Every path's transfers in one round, then the link's resolvers and the DHCPINFORM where
    /// a path needs them.
    private func fullRound(_ plans: [PathPlan], options: CheckOptions, snapshot: PathSnapshot,
                           started start: ContinuousClock.Instant, deadline: ContinuousClock.Instant) throws(CheckError) -> [Round.PathResult] {
        var round = Round(plans, quorum: options.config.quorum, started: start, hedged: options.hedged,
                          draw: options.waveDraw)
        var results = round.isEmpty ? round.run(on: NoTransfers(), deadline: deadline)
                                    : round.run(on: try transferRunner(), deadline: deadline)
        for index in results.indices {
            results[index] = try LinkResolverFallback.retry(results[index], config: options.config, started: start,
                                                            deadline: deadline, lookUp: linkLookUp, runner: transferRunner)
            // At most one DHCPINFORM a check, on the first path (the kernel's own first) that needs it.
            let informed = results[..<index].contains { $0.inform?.sent ?? false }
            results[index] = try DHCPInformFallback.retry(results[index], options: options, snapshot: snapshot, started: start,
                                                          deadline: deadline, ask: informed ? nil : informAsk,
                                                          memory: &informMemory,
                                                          lookUp: linkLookUp, runner: transferRunner)
        }
        return results
    }

    /// The report of a check that started at `started`, with what it put on the wire since `wireBefore`.
    private func finish(_ paths: [PathReport], snapshot: PathSnapshot, started: ContinuousClock.Instant, timestamp: Date,
                        wireBefore: WireBytes) -> Report {
        var report = Report(paths: paths, overall: Self.overall(paths), durationMs: started.duration(to: .now).inMilliseconds,
                            timestamp: timestamp, path: snapshot)
        report.wire = wireTotals - wireBefore
        return report
    }

    /// Each plan's network as this checker remembers it (`PathPlan.known`), named from the
    /// neighbour table read before the round. Read only when there is a memory to look in (a
    /// watch's) and a gate passed: a one-shot check pays nothing for it.
    /// Returns the table it read, nil when it read none.
    private func recall(_ plans: inout [PathPlan], snapshot: PathSnapshot) -> [NeighbourTable.Entry]? {
        guard !networkMemory.entries.isEmpty else { return nil }
        let open = plans.indices.filter { index in
            if case .pass = plans[index].gate { return true }
            return false
        }
        guard !open.isEmpty else { return nil }
        let neighbours = source.neighbours()
        for index in open {
            var network = NetworkFinder.identity(plans[index], snapshot: snapshot, neighbours: neighbours)
            if let name = plans[index].interface,
               let gateway = FaultFinder.gateways(plans[index], snapshot: snapshot).first?.address {
                gatewayMemory.carry(&network, interface: name, gateway: gateway)
            }
            plans[index].known = network.id.flatMap { networkMemory[$0] }
        }
        return neighbours
    }

    /// The running totals of what this checker's transfers and netprobe's own DNS put on the wire.
    private var wireTotals: WireBytes {
        var totals = DNSExchange.wireBytes
        if let runner {
            totals.tcpSent = runner.wireBytes.tcpSent
            totals.tcpReceived = runner.wireBytes.tcpReceived
        }
        return totals
    }

    /// The machine's answer: the best verdict among the paths the kernel routes the machine's
    /// traffic through (the traffic it really sends); among all paths when none does (`-i`).
    static func overall(_ paths: [PathReport]) -> Int {
        let candidates = paths.indices.filter { paths[$0].isDefault }
        let pool = candidates.isEmpty ? Array(paths.indices) : candidates
        // max(by:) keeps the first of equals: report order (the kernel's own path first) breaks ties.
        return pool.max { paths[$0].conclusion.verdict < paths[$1].conclusion.verdict } ?? 0
    }

    /// `options` with the owners asked over this checker's connection.
    func asking(_ options: CheckOptions) -> CheckOptions {
        var options = options
        options.leases.owners.bus = ownerBus
        return options
    }

    func transferRunner() throws(CheckError) -> any TransferRunner {
        if let runner { return runner }
        let fresh = try makeRunner()
        runner = fresh
        return fresh
    }
}

/// The runner of a round that sends nothing: never asked to run anything.
private final class NoTransfers: TransferRunner {
    func run(_ requests: [ProbeRequest], deadline: ContinuousClock.Instant,
             onResult: (ProbeObservation) -> Bool) -> [ProbeObservation] { [] }
    func end(_ names: Set<String>, at instant: ContinuousClock.Instant, with error: TransportError) {}
}

extension PathReport {
    /// A round's result as the report shows it: probes in the probe set's order, those never
    /// sent marked with why.
    init(_ result: Round.PathResult, config: ProbeConfig, started: ContinuousClock.Instant) {
        let plan = result.plan
        let probes: [ProbeEvidence]
        if case .offline = plan.gate {
            probes = config.probes.map { .skipped($0, because: .gate) }
        } else {
            let all = result.findings.settled + plan.filtered.map { .skipped($0, because: .filtered) }
            probes = config.probes.compactMap { spec in all.first { $0.spec.name == spec.name } }
        }
        self.init(interface: plan.interface, family: plan.family, isDefault: plan.isDefault, conclusion: result.conclusion,
                  families: AddressFamily.allCases.filter(plan.families.contains), probes: probes,
                  durationMs: result.settledAt.map { started.duration(to: $0).inMilliseconds } ?? 0,
                  capport: result.findings.capport, canary: result.findings.canary, resolvers: result.resolvers,
                  inform: result.inform)
    }
}
