import Foundation
import NetprobeWire
import NetprobeVerdict
import NetprobeOutput
import NetprobeReport
import NetprobeSystem
import NetprobeNetwork
import NetprobeCheck
import NetprobeWatch
import Testing

/// PathReader against real kernel state: each test builds a namespace with
/// `ip`, then reads it with a snapshot taken from a thread inside it.
@Suite("PathReader in a network namespace")
struct PathReaderTests {
    /// veth pairs stand in for "dummy" links: the dummy driver is not built into every kernel we run on.
    private func buildLab(_ ns: NetworkNamespace) throws {
        // d0: up with carrier (its peer is up), IPv4 + IPv6, default routes.
        try ns.ip("link", "add", "d0", "type", "veth", "peer", "name", "d0p")
        // Leading zeros and hex letters: the address is written two lower-case digits a byte.
        try ns.ip("link", "set", "d0", "address", "02:0a:5e:00:53:f1")
        try ns.ip("link", "set", "d0p", "up")
        try ns.ip("link", "set", "d0", "up")
        try ns.ip("addr", "add", "198.51.100.10/24", "dev", "d0")
        try ns.ip("addr", "add", "169.254.7.7/16", "dev", "d0", "scope", "link")
        try ns.ip("addr", "add", "198.51.100.30/32", "dev", "d0", "scope", "site")
        // As a DHCP client configures its lease: a finite lifetime.
        try ns.ip("addr", "add", "198.51.100.40/24", "dev", "d0", "valid_lft", "600", "preferred_lft", "300")
        try ns.ip("addr", "add", "2001:db8:1::10/64", "dev", "d0", "nodad")
        try ns.ip("route", "add", "default", "via", "198.51.100.1", "dev", "d0", "metric", "100")
        try ns.ip("-6", "route", "add", "default", "via", "2001:db8:1::1", "dev", "d0", "metric", "300")
        // va: administratively up, but its peer vb is down, so no carrier.
        try ns.ip("link", "add", "va", "type", "veth", "peer", "name", "vb")
        try ns.ip("link", "set", "va", "up")
        try ns.ip("addr", "add", "203.0.113.10/24", "dev", "va")
        try ns.ip("route", "add", "default", "via", "203.0.113.1", "dev", "va", "metric", "200")
        // Defaults that lead nowhere or are not a way out: all must be ignored.
        try ns.ip("route", "add", "blackhole", "default", "metric", "50")
        try ns.ip("route", "add", "prohibit", "default", "table", "100", "metric", "1")
        try ns.ip("-6", "route", "add", "unreachable", "default", "metric", "10")
        try ns.ip("route", "add", "default", "via", "198.51.100.3", "dev", "d0", "table", "local")
        // A policy-table default (kept, with its table) and a non-default route (ignored).
        try ns.ip("route", "add", "default", "via", "198.51.100.2", "dev", "d0", "table", "100", "metric", "5")
        try ns.ip("route", "add", "203.0.113.128/25", "via", "198.51.100.1", "dev", "d0")
    }

    @Test func readsInterfacesAddressesAndDefaultRoutes() async throws {
        let snapshot = try await withNamespace { ns in
            try buildLab(ns)
            return try await ns.inside { try PathReader().snapshot() }
        }
        #expect(snapshot.interfaces.map(\.name).sorted() == ["d0", "d0p", "lo", "va", "vb"])
        #expect(snapshot.interfaces.map(\.index) == snapshot.interfaces.map(\.index).sorted())

        let lo = try #require(snapshot.interfaces.first { $0.name == "lo" })
        #expect(lo.type == .loopback && lo.up && lo.carrier && lo.kind == nil && lo.hardwareAddress == nil)
        #expect(lo.addresses.contains(InterfaceAddress(family: .ipv4, address: "127.0.0.1", prefixLength: 8, scope: .host)))
        #expect(lo.addresses.contains(InterfaceAddress(family: .ipv6, address: "::1", prefixLength: 128, scope: .host)))

        let d0 = try #require(snapshot.interfaces.first { $0.name == "d0" })
        #expect(d0.type == .virtual && d0.kind == "veth")
        #expect(d0.up && d0.carrier && d0.operstate == "up" && d0.usable && !d0.expensive)
        #expect(d0.mtu == 1500)
        #expect(d0.hardwareAddress == "02:0a:5e:00:53:f1")
        #expect(d0.addresses.contains(InterfaceAddress(family: .ipv4, address: "198.51.100.10", prefixLength: 24, scope: .global)))
        #expect(d0.addresses.contains(InterfaceAddress(family: .ipv4, address: "169.254.7.7", prefixLength: 16, scope: .link)))
        #expect(d0.addresses.contains(InterfaceAddress(family: .ipv4, address: "198.51.100.30", prefixLength: 32, scope: .site)))
        #expect(d0.addresses.contains(InterfaceAddress(family: .ipv6, address: "2001:db8:1::10", prefixLength: 64, scope: .global)))
        #expect(d0.addresses.allSatisfy { !$0.address.contains("/") })
        // The static ones are permanent (compared above with no lifetime); the leased one counts down from 600 s.
        let leased = try #require(d0.addresses.first { $0.address == "198.51.100.40" })
        #expect(leased.dynamic && (500...600).contains(leased.validLifetime ?? 0))
        #expect(d0.addresses.filter(\.dynamic).map(\.address) == ["198.51.100.40"])

        let va = try #require(snapshot.interfaces.first { $0.name == "va" })
        #expect(va.up && !va.carrier && va.operstate == "lowerlayerdown" && !va.usable)
        #expect(va.addresses.map(\.address).contains("203.0.113.10"))

        let vb = try #require(snapshot.interfaces.first { $0.name == "vb" })
        #expect(!vb.up && !vb.carrier && vb.operstate == "down")

        // IPv4 first, otherwise in the kernel's order (by table, then by metric).
        #expect(snapshot.defaultRoutes == [
            DefaultRoute(family: .ipv4, gateway: "198.51.100.2", interface: "d0", interfaceIndex: d0.index, metric: 5, table: 100),
            DefaultRoute(family: .ipv4, gateway: "198.51.100.1", interface: "d0", interfaceIndex: d0.index, metric: 100, table: 254),
            DefaultRoute(family: .ipv4, gateway: "203.0.113.1", interface: "va", interfaceIndex: va.index, metric: 200, table: 254),
            DefaultRoute(family: .ipv6, gateway: "2001:db8:1::1", interface: "d0", interfaceIndex: d0.index, metric: 300, table: 254),
        ])
        // The kernel's own answer, which no ranking of that list gives: the local table is
        // consulted first (its unicast default wins over main's blackhole at metric 50, and the
        // kernel reports the two merged tables as main), and IPv6's unreachable route at metric
        // 10 comes before d0's default at 300, so IPv6 traffic goes nowhere.
        #expect(snapshot.kernelRoutes == [
            RouteAnswer(family: .ipv4, destination: "8.8.8.8", interface: "d0", interfaceIndex: d0.index, gateway: "198.51.100.3",
                        source: "198.51.100.10", table: 254),
            RouteAnswer(family: .ipv6, destination: "2001:4860:4860::8888", refusal: .unreachable),
        ])
    }

    /// wg-quick's full tunnel: `not fwmark 51820` sends every unmarked packet to table 51820,
    /// and `suppress_prefixlength 0` hides main's default route. Main's metrics say d0; the
    /// kernel says the tunnel. Without the rules, main's default route again.
    @Test func kernelRouteFollowsPolicyRules() async throws {
        let (tunnel, plain) = try await withNamespace { ns in
            try ns.ip("link", "add", "d0", "type", "veth", "peer", "name", "d0p")
            try ns.ip("link", "add", "wg0", "type", "veth", "peer", "name", "wg0p")
            for name in ["d0", "d0p", "wg0", "wg0p"] { try ns.ip("link", "set", name, "up") }
            try ns.ip("addr", "add", "198.51.100.10/24", "dev", "d0")
            try ns.ip("addr", "add", "203.0.113.2/32", "dev", "wg0")
            try ns.ip("route", "add", "default", "via", "198.51.100.1", "dev", "d0", "metric", "100")
            try ns.ip("route", "add", "default", "dev", "wg0", "table", "51820")
            try ns.ip("rule", "add", "not", "fwmark", "51820", "table", "51820")
            try ns.ip("rule", "add", "table", "main", "suppress_prefixlength", "0")
            let tunnel = try await ns.inside { try PathReader().snapshot() }
            try ns.ip("rule", "del", "not", "fwmark", "51820", "table", "51820")
            let plain = try await ns.inside { try PathReader().snapshot() }
            return (tunnel, plain)
        }
        let wg0 = try #require(tunnel.interfaces.first { $0.name == "wg0" })
        let d0 = try #require(tunnel.interfaces.first { $0.name == "d0" })
        #expect(tunnel.kernelRoute(.ipv4) == RouteAnswer(family: .ipv4, destination: "8.8.8.8", interface: "wg0",
                                                         interfaceIndex: wg0.index, source: "203.0.113.2", table: 51820))
        #expect(tunnel.kernelRoute(.ipv6)?.refusal == .noRoute)
        #expect(plain.kernelRoute(.ipv4) == RouteAnswer(family: .ipv4, destination: "8.8.8.8", interface: "d0", interfaceIndex: d0.index,
                                                        gateway: "198.51.100.1", source: "198.51.100.10", table: 254))
    }

    @Test func emptyNamespaceHasOnlyLoopbackAndNoRoute() async throws {
        let snapshot = try await withNamespace { ns in try await ns.inside { try PathReader().snapshot() } }
        #expect(snapshot.interfaces.map(\.name) == ["lo"])
        #expect(snapshot.defaultRoutes.isEmpty)
        #expect(snapshot.kernelRoutes.map(\.refusal) == [.noRoute, .noRoute])
    }

    @Test func gatewaylessDefaultRouteNamesItsInterface() async throws {
        let routes = try await withNamespace { ns in
            try ns.ip("link", "add", "d0", "type", "veth", "peer", "name", "d0p")
            try ns.ip("link", "set", "d0p", "up")
            try ns.ip("link", "set", "d0", "up")
            try ns.ip("route", "add", "default", "dev", "d0")
            return try await ns.inside { try PathReader().snapshot().defaultRoutes }
        }
        #expect(routes.count == 1)
        #expect(routes.first?.gateway == nil && routes.first?.interface == "d0" && routes.first?.metric == 0)
    }

    @Test func classifiesTunnelsAndSoftwareDevices() async throws {
        let interfaces = try await withNamespace { ns in
            try ns.ip("tuntap", "add", "tun0", "mode", "tun")
            try ns.ip("link", "add", "br0", "type", "bridge")
            return try await ns.inside { try PathReader().snapshot().interfaces }
        }
        let tun = try #require(interfaces.first { $0.name == "tun0" })
        #expect(tun.type == .tunnel && tun.kind == "tun" && tun.hardwareAddress == nil)
        let bridge = try #require(interfaces.first { $0.name == "br0" })
        #expect(bridge.type == .virtual && bridge.kind == "bridge")
    }

    @Test func dnsComesFromTheConfiguredFile() async throws {
        let fixture = try ResolvConfFixture.write(ResolvConfFixture.mixed)
        defer { ResolvConfFixture.remove(fixture) }
        let dns = try await withNamespace { ns in try await ns.inside { try PathReader(resolvConfPath: fixture).snapshot().dns } }
        #expect(dns.servers == ["127.0.0.53", "198.51.100.53", "2001:db8::53"])
        #expect(dns.localStub)
        #expect(dns.source == fixture)
    }

    /// Snapshots taken while interfaces come and go must still succeed (dumps
    /// interrupted by changes are retried) and be self-consistent.
    @Test func snapshotsStayConsistentWhileTablesChange() async throws {
        try await withNamespace { ns in
            try ns.ip("link", "add", "d0", "type", "veth", "peer", "name", "d0p")
            try ns.ip("link", "set", "d0p", "up")
            try ns.ip("link", "set", "d0", "up")
            try ns.ip("addr", "add", "198.51.100.10/24", "dev", "d0")
            try ns.ip("route", "add", "default", "via", "198.51.100.1", "dev", "d0")
            let commands = (0..<200).flatMap { i in [
                "link add c\(i) type veth peer name c\(i)p",
                "addr add 203.0.113.\(i % 250 + 1)/32 dev c\(i)",
                "link set c\(i) up",
                "link del c\(i)",
            ] }
            let batchFile = try ns.writeBatch(commands)
            defer { try? FileManager.default.removeItem(atPath: batchFile) }
            let churn = try Command.start(Command.ipPath, ["-n", ns.name, "-batch", batchFile])
            // Snapshot for as long as the churn runs (bounded), then check each one.
            let snapshots = try await ns.inside {
                var taken: [PathSnapshot] = []
                while taken.count < 20 || (churn.isRunning && taken.count < 500) {
                    taken.append(try PathReader().snapshot())
                }
                return taken
            }
            churn.waitUntilExit()
            #expect(churn.terminationStatus == 0)
            for snapshot in snapshots {
                let names = Set(snapshot.interfaces.map(\.name))
                #expect(names.isSuperset(of: ["lo", "d0", "d0p"]))
                #expect(snapshot.defaultRoutes.map(\.interface) == ["d0"])
            }
        }
    }
}
