import NetprobeWire
import NetprobeVerdict
import NetprobeOutput
import NetprobeReport
import NetprobeSystem
import NetprobeNetwork
import NetprobeCheck
import NetprobeWatch

enum Kit {
    static func spec(_ name: String, https: Bool = false, operatorName: String? = nil) -> ProbeSpec {
        ProbeSpec(name: name, url: (https ? "https://" : "http://") + "\(name).example/check", operatorName: operatorName ?? name,
                  expect: Expectation(statuses: [204]))
    }

    /// Four HTTP operators and one HTTPS probe, quorum 2.
    static let config = ProbeConfig(timeout: 10, probeTimeout: 6, quorum: 2,
                                    probes: ["a", "b", "c", "d"].map { spec($0) } + [spec("s", https: true, operatorName: "a")])

    /// The same four HTTP operators with certificate-verified HTTPS of three operators (a, x, y):
    /// HTTPS alone can make the quorum.
    static let httpsQuorumConfig = ProbeConfig(
        timeout: 10, probeTimeout: 6, quorum: 2,
        probes: ["a", "b", "c", "d"].map { spec($0) }
            + [spec("sa", https: true, operatorName: "a"), spec("sx", https: true), spec("sy", https: true)])

    /// The IPv4 address is leased (a lifetime, as a DHCP client sets it) unless `staticV4`.
    static func link(_ name: String, index: Int, v4: String? = nil, v6: String? = nil, up: Bool = true,
                     staticV4: Bool = false) -> NetworkInterface {
        var addresses: [InterfaceAddress] = []
        if let v4 {
            addresses.append(InterfaceAddress(family: .ipv4, address: v4, prefixLength: 24, scope: .global,
                                              validLifetime: staticV4 ? nil : 3600))
        }
        if let v6 { addresses.append(InterfaceAddress(family: .ipv6, address: v6, prefixLength: 64, scope: .global)) }
        return NetworkInterface(name: name, index: index, type: .ethernet, up: up, carrier: up, operstate: up ? "up" : "down",
                                mtu: 1500, addresses: addresses)
    }

    static func route(_ family: AddressFamily, _ interface: String, index: Int, metric: Int) -> DefaultRoute {
        DefaultRoute(family: family, gateway: family == .ipv4 ? "198.51.100.1" : "2001:db8::1", interface: interface,
                     interfaceIndex: index, metric: metric, table: 254)
    }

    static let dns = DNSConfiguration(servers: ["198.51.100.1"], localStub: false, source: "test")

    /// The kernel's answer to `ip route get` for the family: through `interface`, or nowhere.
    static func kernel(_ family: AddressFamily, _ interface: String?, index: Int? = nil, table: Int = 254) -> RouteAnswer {
        let destination = RouteAnswer.representativeDestination(family)
        guard let interface else { return RouteAnswer(family: family, destination: destination, refusal: .noRoute) }
        return RouteAnswer(family: family, destination: destination, interface: interface, interfaceIndex: index, table: table)
    }

    /// eth0 with IPv4 and IPv6 and a default route of each.
    static let dualStack = PathSnapshot(
        interfaces: [link("eth0", index: 2, v4: "198.51.100.2", v6: "2001:db8::2")],
        defaultRoutes: [route(.ipv4, "eth0", index: 2, metric: 100), route(.ipv6, "eth0", index: 2, metric: 100)],
        kernelRoutes: [kernel(.ipv4, "eth0", index: 2), kernel(.ipv6, "eth0", index: 2)], dns: dns)

    static let noRoute = PathSnapshot(interfaces: [link("eth0", index: 2, v4: "198.51.100.2")], defaultRoutes: [],
                                      kernelRoutes: [kernel(.ipv4, nil), kernel(.ipv6, nil)], dns: dns)

    /// Discovery that finds nothing (no DHCP or networkd state in tests).
    static let noDiscovery = LeaseReader(networkdLinks: "/nonexistent", dhcpcdDirectories: [], dhclientDirectories: [],
                                              networkManagerDirectory: "/nonexistent", networkManagerDevices: "/nonexistent")

    static func options(timeout: Double = 10, capportURL: String? = nil, allPaths: Bool = false,
                        families: Set<AddressFamily> = Set(AddressFamily.allCases), interfaces: [String] = [],
                        config: ProbeConfig = config) -> CheckOptions {
        CheckOptions(config: config, families: families, interfaces: interfaces, timeout: timeout, capportURL: capportURL,
                     leases: noDiscovery, allPaths: allPaths)
    }

    static func checker(_ snapshot: PathSnapshot, _ runner: ScriptedRunner) -> Checker {
        Checker(source: FixedPaths(current: snapshot), makeRunner: { runner })
    }

    static func ok(_ ms: Int) -> ScriptedRunner.Answer { ScriptedRunner.Answer(at: .milliseconds(ms), status: 204) }
}

extension Kit {
    /// eth0 (metric 100) and wlan0 (metric 200), both IPv4 and IPv6: four paths.
    static let twoUplinks = PathSnapshot(
        interfaces: [link("eth0", index: 2, v4: "198.51.100.2", v6: "2001:db8::2"),
                     link("wlan0", index: 3, v4: "203.0.113.2", v6: "2001:db8:1::2")],
        defaultRoutes: [route(.ipv4, "eth0", index: 2, metric: 100), route(.ipv6, "eth0", index: 2, metric: 100),
                        route(.ipv4, "wlan0", index: 3, metric: 200), route(.ipv6, "wlan0", index: 3, metric: 200)],
        kernelRoutes: [kernel(.ipv4, "eth0", index: 2), kernel(.ipv6, "eth0", index: 2)], dns: dns)

    /// The request's path as the runner sees it: bound interface and family.
    static func path(of request: ProbeRequest) -> String {
        "\(request.interface ?? "-")/\(request.family?.rawValue ?? "-")"
    }
}
