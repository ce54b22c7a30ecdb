import NetprobeWire
import NetprobeVerdict
import NetprobeOutput
import NetprobeSystem
import NetprobeNetwork

/// Names the network each path is on (`PathReport.network`) from what the check already has
/// or the kernel already knows, after the round: the gateway's link-layer address from the
/// neighbour table (the check's own traffic just made the kernel resolve it), the DHCP server
/// of the lease the plan read, the first search domain of resolv.conf, and on Wi-Fi the SSID
/// NetworkManager gave with that lease (its active access point). Nothing is sent, and a
/// path whose gate said offline is not looked at: its answer stays instant.
enum NetworkFinder {
    /// The kernel's neighbour table, read once when any path's gate passed (the identity and
    /// the fault of an offline path both need it); empty, and not read, otherwise.
    static func neighbours(_ results: [Round.PathResult], source: any PathSource) -> [NeighbourTable.Entry] {
        let probed = results.contains { result in
            if case .pass = result.plan.gate { return true }
            return false
        }
        return probed ? source.neighbours() : []
    }

    static func identify(_ paths: inout [PathReport], results: [Round.PathResult], snapshot: PathSnapshot,
                         neighbours: [NeighbourTable.Entry], memory: inout GatewayMemory) {
        for index in paths.indices {
            let plan = results[index].plan
            guard case .pass = plan.gate else {
                // The link went down or lost its route: whatever comes next may be another network.
                memory.forget(plan.interface)
                continue
            }
            var network = identity(plan, snapshot: snapshot, neighbours: neighbours)
            if let name = plan.interface, let gateway = FaultFinder.gateways(plan, snapshot: snapshot).first?.address {
                memory.carry(&network, interface: name, gateway: gateway)
            }
            paths[index].network = network
        }
    }

    /// The gateway's link-layer address each interface's last check saw, for a gateway that
    /// stops answering ARP or ND (a hung router): the network is still the one it was, so long
    /// as the gateway's address, the DHCP server, the domain and the SSID are all unchanged and
    /// the link stayed up in between. Without it an outage of the router would count as time on
    /// another network. A checker keeps it across the checks of a wait or watch.
    struct GatewayMemory {
        private var seen: [String: (gateway: String, network: NetworkIdentity)] = [:]

        mutating func carry(_ network: inout NetworkIdentity, interface: String, gateway: String) {
            if network.gatewayMAC != nil {
                seen[interface] = (gateway, network)
            } else if let last = seen[interface], last.gateway == gateway, last.network.dhcpServer == network.dhcpServer,
                      last.network.domain == network.domain, last.network.ssid == network.ssid {
                network.gatewayMAC = last.network.gatewayMAC
            }
        }

        /// Forgets the interface's gateway; nil (a path down with no interface to name) forgets all.
        mutating func forget(_ interface: String?) {
            if let interface { seen[interface] = nil } else { seen = [:] }
        }
    }

    /// One path's network: the gateway of its first family (IPv4 before IPv6) that the table
    /// resolved, the server of its interface's lease (else of any lease of the links it leaves
    /// through), and the machine's DNS domain.
    static func identity(_ plan: PathPlan, snapshot: PathSnapshot, neighbours: [NeighbourTable.Entry]) -> NetworkIdentity {
        let gatewayMAC = NeighbourTable.linkLayer(of: FaultFinder.gateways(plan, snapshot: snapshot), in: neighbours)
        let leases = plan.leases ?? []
        let own = leases.first { $0.interface == plan.interface && $0.server != nil }
        let server = (own ?? leases.first { $0.server != nil })?.server
        // The SSID only of the path's own interface (NetworkManager's active access point).
        let ssid = leases.first { $0.interface == plan.interface && $0.ssid != nil }?.ssid
        return NetworkIdentity(gatewayMAC: gatewayMAC, dhcpServer: server, domain: snapshot.dns.searchDomains.first, ssid: ssid)
    }
}
