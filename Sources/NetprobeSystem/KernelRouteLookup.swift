import CNetlink
import Glibc
import NetprobeWire
import NetprobeVerdict

/// Asks the kernel which way ordinary traffic to a destination leaves, as `ip route get`
/// does. Nothing is sent to the destination: this is one netlink request and its answer.
enum KernelRouteLookup {
    /// The answer for `destination` (an IP address text of `family`), with the output
    /// device named from `interfaces` (the same dump's links).
    static func ask(_ socket: NetlinkSocket, family: AddressFamily, destination: String,
                    interfaces: [NetworkInterface]) throws(NetlinkError) -> RouteAnswer {
        var lookup = RouteAnswer(family: family, destination: destination)
        let rawFamily = family == .ipv4 ? AF_INET : AF_INET6
        var bytes = [UInt8](repeating: 0, count: 16)
        guard inet_pton(rawFamily, destination, &bytes) == 1 else {
            lookup.refusal = .other
            return lookup
        }
        var answer = cnetlink_route_answer()
        let result = cnetlink_route_get(socket.handle, rawFamily, bytes, family == .ipv4 ? 4 : 16, &answer)
        try NetlinkError.check(result, "RTM_GETROUTE \(destination)")
        guard let route = answer.route else {
            lookup.refusal = refusal(errno: answer.error)
            return lookup
        }
        defer { rtnl_route_put(route) }
        lookup.table = Int(rtnl_route_get_table(route))
        guard rtnl_route_get_type(route) == UInt8(RTN_UNICAST) else {
            lookup.refusal = .other
            return lookup
        }
        lookup.source = NetlinkAddress.ipString(rtnl_route_get_pref_src(route))
        if rtnl_route_get_nnexthops(route) > 0, let hop = rtnl_route_nexthop_n(route, 0) {
            lookup.gateway = NetlinkAddress.ipString(rtnl_route_nh_get_gateway(hop))
                ?? NetlinkAddress.ipString(rtnl_route_nh_get_via(hop))
            let index = Int(rtnl_route_nh_get_ifindex(hop))
            if index > 0 {
                lookup.interfaceIndex = index
                lookup.interface = interfaces.first { $0.index == index }?.name
            }
        }
        return lookup
    }

    /// The kernel's error, as `ip route get` reports it.
    static func refusal(errno: Int32) -> RouteRefusal {
        switch errno {
        case ENETUNREACH: .noRoute
        case EHOSTUNREACH: .unreachable
        case EINVAL: .blackhole
        case EACCES: .prohibit
        default: .other
        }
    }
}
