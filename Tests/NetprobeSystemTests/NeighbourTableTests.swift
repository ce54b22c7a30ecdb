import Foundation
import NetprobeWire
import NetprobeVerdict
import NetprobeSystem
import Testing

/// The neighbour table as the kernel holds it: entries set with `ip neigh` in a namespace of
/// our own, read back in one dump and matched to gateways by address and device.
@Suite("NeighbourTable in a network namespace")
struct NeighbourTableTests {
    @Test func readsIPv4AndIPv6EntriesWithTheirStates() async throws {
        let (entries, index) = try await withNamespace { ns in
            try ns.ip("link", "add", "n0", "type", "veth", "peer", "name", "n0p")
            try ns.ip("link", "set", "n0p", "up")
            try ns.ip("link", "set", "n0", "up")
            try ns.ip("addr", "add", "198.51.100.10/24", "dev", "n0")
            try ns.ip("neigh", "add", "198.51.100.1", "lladdr", "02:00:00:00:00:01", "dev", "n0", "nud", "reachable")
            try ns.ip("neigh", "add", "198.51.100.2", "lladdr", "02:00:00:00:00:02", "dev", "n0", "nud", "permanent")
            try ns.ip("neigh", "add", "198.51.100.3", "lladdr", "02:00:00:00:00:03", "dev", "n0", "nud", "stale")
            try ns.ip("-6", "neigh", "add", "fe80::1", "lladdr", "02:00:00:00:00:06", "dev", "n0", "nud", "reachable")
            return try await ns.inside {
                let entries = try NeighbourTable.read()
                let index = try PathReader().snapshot().interfaces.first { $0.name == "n0" }?.index
                return (entries, index)
            }
        }
        let found = NeighbourTable.lookUp([("198.51.100.1", "n0", index), ("198.51.100.2", "n0", index),
                                           ("198.51.100.3", "n0", index), ("fe80::1", "n0", index),
                                           ("198.51.100.9", "n0", index), ("198.51.100.1", "other", -1)], in: entries)
        #expect(found.map(\.state) == [.reachable, .permanent, .stale, .reachable, nil, nil])
        #expect(found[0] == GatewayNeighbour(address: "198.51.100.1", interface: "n0", state: .reachable))
        // Each entry's link-layer address, the gateway's part of the network's identity.
        #expect(NeighbourTable.linkLayer(of: [("198.51.100.3", "n0", index)], in: entries) == "02:00:00:00:00:03")
        #expect(NeighbourTable.linkLayer(of: [("198.51.100.9", "n0", index), ("fe80::1", "n0", index)], in: entries) == "02:00:00:00:00:06")
        #expect(NeighbourTable.linkLayer(of: [("198.51.100.1", "other", -1)], in: entries) == nil)
    }

    /// A gateway asked and not answering, as the kernel leaves it while ARP goes unanswered.
    @Test func aSilentGatewayReadsIncomplete() async throws {
        let entries = try await withNamespace { ns in
            try ns.ip("link", "add", "n0", "type", "veth", "peer", "name", "n0p")
            try ns.ip("link", "set", "n0p", "up")
            try ns.ip("link", "set", "n0", "up")
            try ns.ip("addr", "add", "198.51.100.10/24", "dev", "n0")
            try ns.ip("neigh", "add", "198.51.100.1", "dev", "n0", "nud", "incomplete")
            return try await ns.inside { try NeighbourTable.read() }
        }
        let gateway = try #require(IPAddressText.address("198.51.100.1"))
        let state = entries.first { $0.address == gateway }?.state
        #expect(state == .incomplete)
        #expect(NeighbourTable.linkLayer(of: [("198.51.100.1", "n0", nil)], in: entries) == nil)
    }
}
