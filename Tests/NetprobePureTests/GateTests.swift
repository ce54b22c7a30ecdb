import NetprobeWire
import NetprobeVerdict
import NetprobeOutput
import NetprobeReport
import NetprobeSystem
import NetprobeNetwork
import NetprobeCheck
import NetprobeWatch
import Testing

private let lo = NetworkInterface(name: "lo", index: 1, type: .loopback, up: true, carrier: true, operstate: "unknown", mtu: 65536,
                                  addresses: [InterfaceAddress(family: .ipv4, address: "127.0.0.1", prefixLength: 8, scope: .host),
                                              InterfaceAddress(family: .ipv6, address: "::1", prefixLength: 128, scope: .host)])

private func link(_ name: String, _ index: Int, up: Bool = true, carrier: Bool = true, operstate: String = "up",
                  _ addresses: [InterfaceAddress] = []) -> NetworkInterface {
    NetworkInterface(name: name, index: index, type: .ethernet, up: up, carrier: carrier, operstate: operstate, mtu: 1500, addresses: addresses)
}

private let v4 = InterfaceAddress(family: .ipv4, address: "198.51.100.2", prefixLength: 24, scope: .global)
private let v4b = InterfaceAddress(family: .ipv4, address: "203.0.113.2", prefixLength: 24, scope: .global)
private let v6 = InterfaceAddress(family: .ipv6, address: "2001:db8::2", prefixLength: 64, scope: .global)
private let v6LinkLocal = InterfaceAddress(family: .ipv6, address: "fe80::2", prefixLength: 64, scope: .link)
private let v4LinkLocal = InterfaceAddress(family: .ipv4, address: "169.254.7.7", prefixLength: 16, scope: .link)
private let v4Host = InterfaceAddress(family: .ipv4, address: "127.0.0.2", prefixLength: 8, scope: .host)

private func route(_ family: AddressFamily, via gateway: String?, dev: String?, _ index: Int?) -> DefaultRoute {
    DefaultRoute(family: family, gateway: gateway, interface: dev, interfaceIndex: index, metric: 100, table: 254)
}

private let v4Route = route(.ipv4, via: "198.51.100.1", dev: "eth0", 2)
private let dns = DNSConfiguration(servers: ["198.51.100.1"], localStub: false, source: "/etc/resolv.conf")

struct GateCase: Sendable, CustomTestStringConvertible {
    var label: String
    var links: [NetworkInterface]
    var routes: [DefaultRoute]
    /// The kernel's answer to `ip route get`; nil: what a kernel without policy rules answers
    /// for `routes` (`plainKernel`).
    var kernel: [RouteAnswer]? = nil
    var families: Set<AddressFamily> = [.ipv4, .ipv6]
    var wanted: [String] = []
    var expected: GateResult
    var testDescription: String { label }
}

/// What a kernel with only the main table and no policy rules answers: the lowest-metric
/// default route of the family whose link is administratively up (the kernel drops routes of
/// a downed device; a route without carrier is still chosen). Test data only: netprobe asks
/// the kernel itself.
private func plainKernel(_ routes: [DefaultRoute], _ links: [NetworkInterface]) -> [RouteAnswer] {
    AddressFamily.allCases.map { family in
        let alive = routes.filter { route in
            route.family == family && links.contains { $0.up && (route.interfaceIndex == nil || $0.index == route.interfaceIndex) }
        }
        guard let route = alive.min(by: { $0.metric < $1.metric }) else {
            return RouteAnswer(family: family, destination: RouteAnswer.representativeDestination(family), refusal: .noRoute)
        }
        return kernelRoute(family, route.interface, route.interfaceIndex)
    }
}

private func kernelRoute(_ family: AddressFamily, _ name: String?, _ index: Int?, table: Int = 254) -> RouteAnswer {
    RouteAnswer(family: family, destination: RouteAnswer.representativeDestination(family), interface: name,
                interfaceIndex: index, table: table)
}

private func refused(_ family: AddressFamily, _ refusal: RouteRefusal) -> RouteAnswer {
    RouteAnswer(family: family, destination: RouteAnswer.representativeDestination(family), refusal: refusal)
}

private let tun = NetworkInterface(name: "vpn0", index: 9, type: .tunnel, up: true, carrier: true, operstate: "unknown", mtu: 1420,
                                   addresses: [InterfaceAddress(family: .ipv4, address: "10.64.0.2", prefixLength: 32, scope: .global)])
private let deadTun = NetworkInterface(name: "vpn0", index: 9, type: .tunnel, up: true, carrier: false, operstate: "down", mtu: 1420,
                                       addresses: [InterfaceAddress(family: .ipv4, address: "10.64.0.2", prefixLength: 32, scope: .global)])

@Suite struct GateTests {
    /// The gate follows the way a packet would leave: default route, then the link it
    /// uses, then the address it would carry, and names the first layer that is missing.
    static let cases: [GateCase] = [
        // A fresh network namespace (`unshare -n`): nothing but loopback, no route at all.
        GateCase(label: "no interfaces", links: [], routes: [], expected: .offline(.noDefaultRoute)),
        GateCase(label: "only loopback", links: [lo], routes: [], expected: .offline(.noDefaultRoute)),
        GateCase(label: "loopback down too", links: [link("lo", 1, up: false, carrier: false, operstate: "down")], routes: [],
                 expected: .offline(.noDefaultRoute)),
        GateCase(label: "default route through an administratively down interface",
                 links: [lo, link("eth0", 2, up: false, carrier: false, operstate: "down", [v4])],
                 routes: [v4Route], expected: .offline(.noLink)),
        GateCase(label: "default route through an interface without carrier",
                 links: [lo, link("eth0", 2, carrier: false, operstate: "lowerlayerdown", [v4])],
                 routes: [v4Route], expected: .offline(.noLink)),
        GateCase(label: "carrier but operstate down", links: [lo, link("eth0", 2, operstate: "down", [v4])],
                 routes: [v4Route], expected: .offline(.noLink)),
        GateCase(label: "default route through a down interface while another is up",
                 links: [lo, link("eth0", 2, [v4]), link("wlan0", 3, carrier: false, operstate: "dormant", [v4b])],
                 routes: [route(.ipv4, via: "203.0.113.1", dev: "wlan0", 3)], expected: .offline(.noLink)),
        GateCase(label: "up and routed, no addresses", links: [lo, link("eth0", 2)], routes: [v4Route], expected: .offline(.noAddress)),
        GateCase(label: "up and routed, only link-local addresses", links: [lo, link("eth0", 2, [v6LinkLocal, v4LinkLocal])],
                 routes: [route(.ipv6, via: "fe80::1", dev: "eth0", 2), v4Route], expected: .offline(.noAddress)),
        GateCase(label: "up and routed, only a host-scope address", links: [lo, link("eth0", 2, [v4Host])], routes: [v4Route],
                 expected: .offline(.noAddress)),
        GateCase(label: "global address on another link than the route's",
                 links: [lo, link("eth0", 2, [v6LinkLocal]), link("eth1", 3, [v4])], routes: [v4Route], expected: .offline(.noAddress)),
        GateCase(label: "address but no default route", links: [lo, link("eth0", 2, [v4, v6])], routes: [],
                 expected: .offline(.noDefaultRoute)),
        GateCase(label: "IPv4 address and default route", links: [lo, link("eth0", 2, [v4, v6LinkLocal])], routes: [v4Route],
                 expected: .pass(families: [.ipv4], interfaces: ["eth0"])),
        GateCase(label: "-4 with IPv4", links: [lo, link("eth0", 2, [v4])], routes: [v4Route], families: [.ipv4],
                 expected: .pass(families: [.ipv4], interfaces: ["eth0"])),
        GateCase(label: "-6 with only IPv4 configured", links: [lo, link("eth0", 2, [v4, v6LinkLocal])], routes: [v4Route],
                 families: [.ipv6], expected: .offline(.noDefaultRoute)),
        GateCase(label: "-6 with an IPv6 default route but only a link-local IPv6 address",
                 links: [lo, link("eth0", 2, [v4, v6LinkLocal])], routes: [v4Route, route(.ipv6, via: "fe80::1", dev: "eth0", 2)],
                 families: [.ipv6], expected: .offline(.noAddress)),
        GateCase(label: "-4 with only IPv6 configured", links: [lo, link("eth0", 2, [v6])], routes: [route(.ipv6, via: "fe80::1", dev: "eth0", 2)],
                 families: [.ipv4], expected: .offline(.noDefaultRoute)),
        GateCase(label: "IPv6 default via link-local gateway with a global address",
                 links: [lo, link("eth0", 2, [v6LinkLocal, v6])], routes: [route(.ipv6, via: "fe80::1", dev: "eth0", 2)],
                 expected: .pass(families: [.ipv6], interfaces: ["eth0"])),
        GateCase(label: "dual stack", links: [lo, link("eth0", 2, [v4, v6])],
                 routes: [v4Route, route(.ipv6, via: "fe80::1", dev: "eth0", 2)],
                 expected: .pass(families: [.ipv4, .ipv6], interfaces: ["eth0"])),
        GateCase(label: "IPv6 route lacks a global address: only IPv4 passes", links: [lo, link("eth0", 2, [v4, v6LinkLocal])],
                 routes: [v4Route, route(.ipv6, via: "fe80::1", dev: "eth0", 2)],
                 expected: .pass(families: [.ipv4], interfaces: ["eth0"])),
        GateCase(label: "two uplinks: only the one the kernel chose", links: [lo, link("eth0", 2, [v4]), link("wlan0", 3, [v4b])],
                 routes: [v4Route, route(.ipv4, via: "203.0.113.1", dev: "wlan0", 3)],
                 expected: .pass(families: [.ipv4], interfaces: ["eth0"])),
        GateCase(label: "multipath route without a device: the kernel names the hop", links: [lo, link("eth0", 2, [v4])],
                 routes: [route(.ipv4, via: nil, dev: nil, nil)], kernel: [kernelRoute(.ipv4, "eth0", 2)],
                 expected: .pass(families: [.ipv4], interfaces: ["eth0"])),
        // Policy routing: the kernel's answer, not the metrics, says which way traffic goes.
        GateCase(label: "wg-quick full tunnel, tunnel dead: its table wins over main's open uplink",
                 links: [lo, link("eth0", 2, [v4]), deadTun],
                 routes: [v4Route, DefaultRoute(family: .ipv4, gateway: nil, interface: "vpn0", interfaceIndex: 9, metric: 0, table: 51820)],
                 kernel: [kernelRoute(.ipv4, "vpn0", 9, table: 51820), refused(.ipv6, .noRoute)], expected: .offline(.noLink)),
        GateCase(label: "wg-quick full tunnel, tunnel up", links: [lo, link("eth0", 2, [v4]), tun],
                 routes: [v4Route, DefaultRoute(family: .ipv4, gateway: nil, interface: "vpn0", interfaceIndex: 9, metric: 0, table: 51820)],
                 kernel: [kernelRoute(.ipv4, "vpn0", 9, table: 51820), refused(.ipv6, .noRoute)],
                 expected: .pass(families: [.ipv4], interfaces: ["vpn0"])),
        GateCase(label: "a rule sends everything to table 200 past main's lower-metric dead tunnel",
                 links: [lo, link("eth0", 2, [v4]), deadTun],
                 routes: [DefaultRoute(family: .ipv4, gateway: nil, interface: "vpn0", interfaceIndex: 9, metric: 50, table: 254),
                          DefaultRoute(family: .ipv4, gateway: "198.51.100.1", interface: "eth0", interfaceIndex: 2, metric: 300, table: 200)],
                 kernel: [kernelRoute(.ipv4, "eth0", 2, table: 200)], expected: .pass(families: [.ipv4], interfaces: ["eth0"])),
        GateCase(label: "a VPN's 0/1 and 128/1 routes: no default route through it, yet the kernel takes it",
                 links: [lo, link("eth0", 2, [v4]), tun], routes: [v4Route], kernel: [kernelRoute(.ipv4, "vpn0", 9)],
                 expected: .pass(families: [.ipv4], interfaces: ["vpn0"])),
        GateCase(label: "unreachable default", links: [lo, link("eth0", 2, [v4])], routes: [],
                 kernel: [refused(.ipv4, .unreachable), refused(.ipv6, .noRoute)], expected: .offline(.noDefaultRoute)),
        GateCase(label: "a policy blackhole in front of main's open default route", links: [lo, link("eth0", 2, [v4])], routes: [v4Route],
                 kernel: [refused(.ipv4, .blackhole), refused(.ipv6, .noRoute)], expected: .offline(.noDefaultRoute)),
        GateCase(label: "prohibit", links: [lo, link("eth0", 2, [v4])], routes: [v4Route],
                 kernel: [refused(.ipv4, .prohibit)], expected: .offline(.noDefaultRoute)),
        GateCase(label: "no way out, and the default route's link is down: no-link says why",
                 links: [lo, link("eth0", 2, up: false, carrier: false, operstate: "down", [v4])], routes: [v4Route],
                 kernel: [refused(.ipv4, .noRoute)], expected: .offline(.noLink)),
        GateCase(label: "the kernel was not asked about the family", links: [lo, link("eth0", 2, [v4])], routes: [v4Route],
                 kernel: [], expected: .offline(.noDefaultRoute)),
        GateCase(label: "-i names the uplink the tunnel's table hides", links: [lo, link("eth0", 2, [v4]), deadTun],
                 routes: [v4Route, DefaultRoute(family: .ipv4, gateway: nil, interface: "vpn0", interfaceIndex: 9, metric: 0, table: 51820)],
                 kernel: [kernelRoute(.ipv4, "vpn0", 9, table: 51820)], wanted: ["eth0"],
                 expected: .pass(families: [.ipv4], interfaces: ["eth0"])),
        GateCase(label: "-i selects the routed interface", links: [lo, link("eth0", 2, [v4]), link("wlan0", 3, [v4b])],
                 routes: [v4Route, route(.ipv4, via: "203.0.113.1", dev: "wlan0", 3)], wanted: ["wlan0"],
                 expected: .pass(families: [.ipv4], interfaces: ["wlan0"])),
        GateCase(label: "-i excludes the only routed interface", links: [lo, link("eth0", 2, [v4]), link("eth1", 3, [v4b])],
                 routes: [v4Route], wanted: ["eth1"], expected: .offline(.noDefaultRoute)),
        GateCase(label: "-i names a down interface that has the route",
                 links: [lo, link("eth0", 2, [v4]), link("eth1", 3, up: false, [v4b])],
                 routes: [v4Route, route(.ipv4, via: "203.0.113.1", dev: "eth1", 3)], wanted: ["eth1"], expected: .offline(.noLink)),
        GateCase(label: "-i names a missing interface", links: [lo, link("eth0", 2, [v4])], routes: [v4Route], wanted: ["wlan9"],
                 expected: .offline(.noLink)),
        GateCase(label: "-i lo is never an uplink", links: [lo, link("eth0", 2, [v4])], routes: [v4Route], wanted: ["lo"],
                 expected: .offline(.noLink)),
    ]

    @Test(arguments: cases)
    func evaluate(_ c: GateCase) {
        let snapshot = PathSnapshot(interfaces: c.links, defaultRoutes: c.routes,
                                    kernelRoutes: c.kernel ?? plainKernel(c.routes, c.links), dns: dns)
        #expect(Gate.evaluate(snapshot, families: c.families, interfaces: c.wanted) == c.expected)
    }

    @Test func reasonCodes() {
        #expect(Reason.noLink.rawValue == "no-link")
        #expect(Reason.noAddress.rawValue == "no-address")
        #expect(Reason.noDefaultRoute.rawValue == "no-default-route")
    }
}
