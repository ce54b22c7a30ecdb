import CNetlink
import Glibc

/// How the kernel routes to one destination, as far as a stall can tell about the uplink.
public enum DestinationRoute: Sendable, Equatable {
    /// Through a gateway, or out of a point-to-point link (a VPN, a modem): traffic that crosses
    /// the way out, so its fate says something about it.
    case viaGateway
    /// A neighbour on a link of its own (the gateway's own address, a NAS, an SSH session
    /// from the LAN): it proves the link, not the way out.
    case onLink
    /// One of the machine's own addresses, loopback included.
    case local
    /// No unicast route, or no answer from the kernel: nothing to judge by.
    case unknown
}

/// The kernel's answer (`ip route get`) for each destination a socket goes to, asked once and
/// remembered until the routes may have changed (`forget`), so a thousand flows to a handful
/// of servers cost a handful of questions. Not Sendable: one owner, one thread.
final class DestinationRoutes {
    /// Beyond this many destinations the memory starts again (a scan of many addresses).
    static let capacity = 4096

    private let socket: NetlinkSocket?
    private var known: [[UInt8]: DestinationRoute] = [:]
    /// Whether each output interface is point-to-point (no neighbours: everything is beyond it).
    private var pointToPoint: [Int32: Bool] = [:]

    init() {
        socket = try? NetlinkSocket()
    }

    func forget() {
        known = [:]
        last = nil
        pointToPoint = [:]
    }

    /// The last answer given: a thousand flows to a handful of servers mostly ask it again.
    private var last: (destination: [UInt8], route: DestinationRoute)?

    func route(to destination: [UInt8]) -> DestinationRoute {
        if let last, last.destination == destination { return last.route }
        if let route = known[destination] {
            last = (destination, route)
            return route
        }
        if known.count >= Self.capacity { known = [:] }
        let route = ask(destination)
        known[destination] = route
        last = (destination, route)
        return route
    }

    private func ask(_ destination: [UInt8]) -> DestinationRoute {
        guard let socket, destination.count == 4 || destination.count == 16 else { return .unknown }
        var answer = cnetlink_route_answer()
        let family = destination.count == 4 ? AF_INET : AF_INET6
        guard cnetlink_route_get(socket.handle, family, destination, Int32(destination.count), &answer) == 0,
              let route = answer.route else { return .unknown }
        defer { rtnl_route_put(route) }
        switch Int(rtnl_route_get_type(route)) {
        case Int(RTN_LOCAL): return .local
        case Int(RTN_UNICAST): break
        default: return .unknown
        }
        guard rtnl_route_get_nnexthops(route) > 0, let hop = rtnl_route_nexthop_n(route, 0) else { return .unknown }
        if rtnl_route_nh_get_gateway(hop) != nil || rtnl_route_nh_get_via(hop) != nil { return .viaGateway }
        return isPointToPoint(Int32(rtnl_route_nh_get_ifindex(hop)), socket) ? .viaGateway : .onLink
    }

    private func isPointToPoint(_ index: Int32, _ socket: NetlinkSocket) -> Bool {
        if let known = pointToPoint[index] { return known }
        var link: OpaquePointer?
        var answer = false
        if rtnl_link_get_kernel(socket.handle, index, nil, &link) >= 0, let link {
            answer = rtnl_link_get_flags(link) & UInt32(IFF_POINTOPOINT) != 0
            rtnl_link_put(link)
        }
        pointToPoint[index] = answer
        return answer
    }
}
