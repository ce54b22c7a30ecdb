import CNetlink
import Glibc
import NetprobeWire
import NetprobeVerdict

/// The kernel's neighbour table (`ip neigh`), IPv4 and IPv6, read in one RTM_GETNEIGH dump.
/// Reading it sends nothing: it is what the kernel learned (or failed to learn) by ARP and ND
/// while the check's own traffic went to the gateway.
public enum NeighbourTable {
    /// One entry: which device, which address, what state.
    public struct Entry: Sendable, Equatable {
        public var interfaceIndex: Int
        public var address: [UInt8]
        public var state: NeighbourState?
        /// The neighbour's link-layer address ("aa:bb:cc:dd:ee:ff"); nil while unresolved.
        public var linkLayer: String?

        public init(interfaceIndex: Int, address: [UInt8], state: NeighbourState?, linkLayer: String? = nil) {
            self.interfaceIndex = interfaceIndex
            self.address = address
            self.state = state
            self.linkLayer = linkLayer
        }
    }

    public static func read() throws(NetlinkError) -> [Entry] {
        let socket = try NetlinkSocket()
        let cache = try NetlinkCache("rtnl_neigh_alloc_cache") { rtnl_neigh_alloc_cache(socket.handle, $0) }
        var entries: [Entry] = []
        cache.forEach { object in
            guard let text = NetlinkAddress.ipString(rtnl_neigh_get_dst(object)),
                  let bytes = IPAddressText.address(text, octets: .strict) else { return }
            entries.append(Entry(interfaceIndex: Int(rtnl_neigh_get_ifindex(object)), address: bytes,
                                 state: state(kernelBits: rtnl_neigh_get_state(object)),
                                 linkLayer: NetlinkAddress.hardwareString(rtnl_neigh_get_lladdr(object))))
        }
        return entries
    }

    /// The NUD_* bit the kernel set; the most telling one when several are (it sets one).
    static func state(kernelBits bits: Int32) -> NeighbourState? {
        let order: [(Int32, NeighbourState)] = [
            (0x20, .failed), (0x01, .incomplete), (0x02, .reachable), (0x80, .permanent),
            (0x08, .delay), (0x10, .probe), (0x04, .stale), (0x40, .noarp),
        ]
        return order.first { bits & $0.0 != 0 }?.1
    }

    /// The link-layer address the table holds for the first of these gateways it resolved
    /// (a failed or incomplete entry holds none).
    public static func linkLayer(of gateways: [(address: String, interface: String?, index: Int?)],
                                 in entries: [Entry]) -> String? {
        for gateway in gateways {
            let bytes = IPAddressText.address(gateway.address, octets: .strict)
            let entry = entries.first { $0.address == bytes && (gateway.index == nil || $0.interfaceIndex == gateway.index) }
            if let entry, entry.state != .failed, entry.state != .incomplete, let linkLayer = entry.linkLayer { return linkLayer }
        }
        return nil
    }

    /// What the table says of each gateway (address on device); a gateway it holds no entry
    /// for gets state nil.
    public static func lookUp(_ gateways: [(address: String, interface: String?, index: Int?)],
                              in entries: [Entry]) -> [GatewayNeighbour] {
        gateways.map { gateway in
            let bytes = IPAddressText.address(gateway.address, octets: .strict)
            let entry = entries.first { $0.address == bytes && (gateway.index == nil || $0.interfaceIndex == gateway.index) }
            return GatewayNeighbour(address: gateway.address, interface: gateway.interface, state: entry?.state)
        }
    }
}
