import NetprobeWire
import NetprobeVerdict
import NetprobeOutput
import NetprobeSystem
import NetprobeNetwork

/// Where a check learns the kernel's view of the network. The real one is netlink
/// (`PathReader`); tests hand the loops a scripted one.
public protocol PathSource {
    func snapshot() throws(CheckError) -> PathSnapshot
    /// The kernel's route for each address probes connected to (`ip route get ADDRESS`); an
    /// address it cannot answer for is left out.
    func routes(to destinations: [String], interfaces: [NetworkInterface]) -> [String: RouteAnswer]
    /// The kernel's neighbour table (`ip neigh`), read once after a round whose gate passed.
    func neighbours() -> [NeighbourTable.Entry]
}

extension PathSource {
    /// A source that knows no routes: probes keep the path's name.
    public func routes(to destinations: [String], interfaces: [NetworkInterface]) -> [String: RouteAnswer] { [:] }
    /// A source that knows no neighbours: no gateway is judged.
    public func neighbours() -> [NeighbourTable.Entry] { [] }
}

/// What runs a round of HTTP transfers concurrently. The real one is libcurl's multi
/// interface (`ProbeRunner`); tests script the answers and their order.
public protocol TransferRunner: AnyObject {
    /// Runs every request; `onResult` sees each as it ends (returning false ends the round:
    /// what is still running is cancelled). Returns every observation, in request order.
    func run(_ requests: [ProbeRequest], deadline: ContinuousClock.Instant,
             onResult: (ProbeObservation) -> Bool) -> [ProbeObservation]
    /// From `onResult`: the named transfers, if still running at `instant`, end then with `error`.
    /// A set, not any sequence: called through this protocol, a generic sequence's iterator
    /// type was looked up by name at the first cut-off.
    func end(_ names: Set<String>, at instant: ContinuousClock.Instant, with error: TransportError)
    /// Running totals of the TCP payload its connections carried (a check takes the difference).
    var wireBytes: WireBytes { get }
    /// The ICMP errors routers sent about its connections since the last call.
    func takeRouterErrors() -> [RouterError]
    /// Before `run` or from `onResult`: the named held requests (`ProbeRequest.held`) start at `instant`, unless
    /// `end` has ended them by then. A later call for the same name replaces the earlier one.
    func release(_ names: Set<String>, at instant: ContinuousClock.Instant)
}

extension TransferRunner {
    /// A runner that opens no connection of its own (a scripted one) put nothing on the wire.
    public var wireBytes: WireBytes { WireBytes() }
    /// A runner that opens no connection of its own hears from no router.
    public func takeRouterErrors() -> [RouterError] { [] }
    /// A runner that holds nothing back (it sends every request at once) has nothing to release.
    public func release(_ names: Set<String>, at instant: ContinuousClock.Instant) {}
}

extension ProbeRunner: TransferRunner {}

/// The kernel's view, read over netlink.
public struct KernelPaths: PathSource {
    public var reader: PathReader

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

    /// A failed lookup costs only the probes' device names: the verdict stands without them.
    public func routes(to destinations: [String], interfaces: [NetworkInterface]) -> [String: RouteAnswer] {
        (try? reader.routes(to: destinations, interfaces: interfaces)) ?? [:]
    }

    /// A failed read costs only the gateway's part of the fault: the verdict stands without it.
    public func neighbours() -> [NeighbourTable.Entry] {
        (try? NeighbourTable.read()) ?? []
    }
}
