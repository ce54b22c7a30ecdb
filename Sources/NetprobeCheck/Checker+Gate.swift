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

/// What `wait` and `watch` ask between checks: can the kernel's latest change make a
/// difference? The path gate is the cheap part of a check (one netlink snapshot, nothing
/// read from files, nothing sent), so it is asked on every batch of events; only when its
/// answer moved is the change worth checking at once rather than after the debounce.
extension Checker {
    /// One path's gate, named the way `--all-paths` names paths (nil, nil: the machine's path).
    /// Only whether it lets probes through, and where, is kept: a path down for another
    /// reason (no link -> no default route) is still down, a change worth no haste.
    struct PathGate: Equatable {
        var path: PathKey
        var open: Open?

        struct Open: Equatable {
            var families: Set<AddressFamily>
            var interfaces: [String]
        }

        init(_ path: PathKey = PathKey(), gate: GateResult) {
            self.path = path
            if case .pass(let families, let interfaces) = gate { open = Open(families: families, interfaces: interfaces) }
        }
    }

    /// The gates of the paths a check with `options` would answer for.
    static func gates(_ options: CheckOptions, snapshot: PathSnapshot) -> [PathGate] {
        guard options.allPaths else {
            return [PathGate(gate: Gate.evaluate(snapshot, families: options.families, interfaces: options.interfaces))]
        }
        return PathPlan.candidates(options, snapshot: snapshot).map { PathGate($0.path, gate: $0.gate) }
    }

    /// True when the gate's answer now differs from the last check's: a path opened, closed,
    /// or opened elsewhere (or there was no check yet, or the kernel cannot be read: the
    /// check will say so).
    public func gateMoved(_ options: CheckOptions) -> Bool {
        guard let lastGates, let snapshot = try? snapshot() else { return true }
        return Self.gates(options, snapshot: snapshot) != lastGates
    }

    /// What the lease and link state files say of the links the gates let probes through: per
    /// interface, the Captive Portal API URI announced and the link's resolvers. Read with the
    /// current time (a dhclient lease that expired since is no longer one).
    struct LeaseFacts: Equatable {
        var interfaces: [String] = []
        var uris: [String?] = []
        var resolvers: [[String]?] = []
    }

    static func leaseFacts(_ options: CheckOptions, snapshot: PathSnapshot, gates: [PathGate]) -> LeaseFacts {
        var leases = options.leases
        leases.now = Date()
        var facts = LeaseFacts()
        var seen: Set<String> = []
        for name in gates.flatMap({ $0.open?.interfaces ?? [] }) where seen.insert(name).inserted {
            facts.interfaces.append(name)
            let reading = leases.read(path: snapshot, through: [name])
            facts.uris.append(leases.captivePortal(reading)?.uri)
            facts.resolvers.append(options.askLinkResolvers ? leases.resolvers(reading)?.servers : nil)
        }
        return facts
    }

    /// True when a lease or link state file now announces another Captive Portal API URI, or
    /// other resolvers, for a link the last check's paths went through than it did at that
    /// check: a network that turned captive on a DHCP renewal is checked at once. Files that
    /// changed without changing those (a lease renewed as it was, another link's) are no reason.
    public func leaseMoved(_ options: CheckOptions) -> Bool {
        guard tracksLeases, let lastLeases, let lastGates, let snapshot = try? snapshot() else { return false }
        return Self.leaseFacts(asking(options), snapshot: snapshot, gates: lastGates) != lastLeases
    }

    /// The addresses of the interfaces the gates let probes through.
    static func addresses(of gates: [PathGate], in snapshot: PathSnapshot) -> Set<[UInt8]> {
        let names = Set(gates.flatMap { $0.open?.interfaces ?? [] })
        return Set(snapshot.interfaces.filter { names.contains($0.name) }.flatMap(\.addresses)
            .compactMap { IPAddressText.address($0.address) })
    }

    /// Makes the transfer engine (loads libcurl) while nothing else is going on: a caller
    /// that is about to sleep until the network appears calls it, so the first check after
    /// the route shows up does not pay for it. A failure is left for that check to report.
    public func prepare() {
        _ = try? transferRunner()
    }
}
