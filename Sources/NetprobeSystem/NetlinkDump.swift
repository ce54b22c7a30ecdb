import CNetlink
import Glibc
import NetprobeWire
import NetprobeVerdict

/// One pass over the kernel's link, address and route tables, converted to
/// plain values while the libnl caches are alive, then freed.
package struct NetlinkDump {
    var interfaces: [NetworkInterface]
    var defaultRoutes: [DefaultRoute]
    /// The kernel's route for ordinary traffic, per family (`KernelRouteLookup`).
    var kernelRoutes: [RouteAnswer]
    /// False when the three dumps disagreed (an address or route on an
    /// interface missing from the link dump: something changed in between).
    /// Such addresses are dropped and such routes keep no interface name.
    var consistent: Bool

    static let localTable: UInt32 = 255  // RT_TABLE_LOCAL: our own addresses, never a way out.

    static func read(sysfsRoot: String) throws(NetlinkError) -> NetlinkDump {
        let socket = try NetlinkSocket()
        let links = try NetlinkCache("rtnl_link_alloc_cache") { rtnl_link_alloc_cache(socket.handle, AF_UNSPEC, $0) }
        let addresses = try NetlinkCache("rtnl_addr_alloc_cache") { rtnl_addr_alloc_cache(socket.handle, $0) }
        let routes = try NetlinkCache("rtnl_route_alloc_cache") { rtnl_route_alloc_cache(socket.handle, AF_UNSPEC, 0, $0) }

        var interfaces: [NetworkInterface] = []
        links.forEach { interfaces.append(interface(from: $0, sysfsRoot: sysfsRoot)) }
        // Sorted first, so an address or a route finds its interface by binary search: an
        // [Int: Int] index would have its storage type built at run time.
        interfaces.sort { $0.index < $1.index }
        func position(ofIndex index: Int) -> Int? {
            var low = 0, high = interfaces.count
            while low < high {
                let middle = (low + high) / 2
                if interfaces[middle].index < index { low = middle + 1 } else { high = middle }
            }
            return low < interfaces.count && interfaces[low].index == index ? low : nil
        }

        var consistent = true
        addresses.forEach { object in
            let index = Int(rtnl_addr_get_ifindex(object))
            guard let entry = address(from: object) else { return }
            guard let position = position(ofIndex: index) else { consistent = false; return }
            interfaces[position].addresses.append(entry)
        }

        var defaultRoutes: [DefaultRoute] = []
        routes.forEach { object in
            guard var route = defaultRoute(from: object) else { return }
            if let index = route.interfaceIndex {
                if let position = position(ofIndex: index) {
                    route.interface = interfaces[position].name
                } else {
                    consistent = false
                }
            }
            defaultRoutes.append(route)
        }
        // IPv4 first, otherwise in the kernel's own order. Which route the machine's traffic
        // takes is not read from this list (metrics cannot tell it: policy rules choose the
        // table first) but asked of the kernel, below.
        let ipv4 = defaultRoutes.filter { $0.family == .ipv4 }
        defaultRoutes = ipv4 + defaultRoutes.filter { $0.family != .ipv4 }

        var kernelRoutes: [RouteAnswer] = []
        for family in AddressFamily.allCases {
            kernelRoutes.append(try KernelRouteLookup.ask(
                socket, family: family, destination: RouteAnswer.representativeDestination(family), interfaces: interfaces))
        }
        return NetlinkDump(interfaces: interfaces, defaultRoutes: defaultRoutes, kernelRoutes: kernelRoutes,
                           consistent: consistent)
    }

    private static func interface(from link: OpaquePointer, sysfsRoot: String) -> NetworkInterface {
        let name = rtnl_link_get_name(link).map { String(cString: $0) } ?? ""
        let index = Int(rtnl_link_get_ifindex(link))
        let kind = rtnl_link_get_type(link).map { String(cString: $0) }
        let hardwareType = Int32(truncatingIfNeeded: rtnl_link_get_arptype(link))
        let flags = rtnl_link_get_flags(link)
        // sysfs only matters for devices netlink cannot place: physical ones carry no kind.
        let needsHints = kind == nil && hardwareType != Int32(ARPHRD_LOOPBACK)
        let hints = needsHints
            ? InterfaceClassifier.hints(name: name, index: index, sysfsRoot: sysfsRoot)
            : .none
        let type = InterfaceClassifier.classify(hardwareType: hardwareType, kind: kind, hints: hints)
        return NetworkInterface(
            name: name, index: index, type: type, kind: kind,
            up: flags & UInt32(IFF_UP) != 0,
            carrier: flags & UInt32(CNETLINK_IFF_LOWER_UP) != 0,
            operstate: operstateName(rtnl_link_get_operstate(link)),
            mtu: Int(rtnl_link_get_mtu(link)),
            hardwareAddress: NetlinkAddress.hardwareString(rtnl_link_get_addr(link)),
            expensive: type == .cellular)
    }

    private static func operstateName(_ state: UInt8) -> String {
        var buffer = [CChar](repeating: 0, count: 32)
        guard let text = rtnl_link_operstate2str(state, &buffer, buffer.count) else { return "unknown" }
        return String(cString: text)
    }

    private static func address(from object: OpaquePointer) -> InterfaceAddress? {
        let local = rtnl_addr_get_local(object)
        guard let family = NetlinkAddress.family(local), let text = NetlinkAddress.ipString(local) else {
            return nil
        }
        return InterfaceAddress(
            family: family, address: text, prefixLength: Int(rtnl_addr_get_prefixlen(object)),
            scope: scope(rtnl_addr_get_scope(object)), validLifetime: validLifetime(object))
    }

    /// The seconds the kernel keeps the address; nil for a permanent one (IFA_F_PERMANENT,
    /// valid_lft forever), as a static configuration leaves it. A DHCP client's address
    /// carries the lease time.
    private static func validLifetime(_ object: OpaquePointer) -> UInt32? {
        let lifetime = rtnl_addr_get_valid_lifetime(object)
        if rtnl_addr_get_flags(object) & UInt32(CNETLINK_IFA_F_PERMANENT) != 0 || lifetime == CNETLINK_INFINITY_LIFE_TIME {
            return nil
        }
        return lifetime
    }

    /// rtnl_scope2str names the well-known scopes; numeric (custom) scopes are
    /// placed by the kernel's ordering: the larger the number, the narrower.
    static func scope(_ raw: Int32) -> AddressScope {
        var buffer = [CChar](repeating: 0, count: 32)
        if let text = rtnl_scope2str(raw, &buffer, buffer.count),
           let named = AddressScope(rawValue: String(cString: text)) {
            return named
        }
        switch raw {
        case 254...: return .host  // host (254) and nowhere (255)
        case 253: return .link
        case 200..<253: return .site
        default: return .global
        }
    }

    private static func defaultRoute(from route: OpaquePointer) -> DefaultRoute? {
        guard rtnl_route_get_type(route) == UInt8(RTN_UNICAST),
              rtnl_route_get_table(route) != localTable,
              let family = NetlinkAddress.family(rawFamily: Int32(rtnl_route_get_family(route)))
        else { return nil }
        if let destination = rtnl_route_get_dst(route), nl_addr_get_prefixlen(destination) != 0 { return nil }

        var gateway: String?
        var interfaceIndex: Int?
        if rtnl_route_get_nnexthops(route) > 0, let hop = rtnl_route_nexthop_n(route, 0) {
            gateway = NetlinkAddress.ipString(rtnl_route_nh_get_gateway(hop))
                ?? NetlinkAddress.ipString(rtnl_route_nh_get_via(hop))
            let index = rtnl_route_nh_get_ifindex(hop)
            interfaceIndex = index > 0 ? Int(index) : nil
        }
        return DefaultRoute(
            family: family, gateway: gateway, interface: nil, interfaceIndex: interfaceIndex,
            metric: Int(rtnl_route_get_priority(route)), table: Int(rtnl_route_get_table(route)))
    }
}
