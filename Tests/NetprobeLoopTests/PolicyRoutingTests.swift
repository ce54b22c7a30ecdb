import NetprobeWire
import NetprobeVerdict
import NetprobeOutput
import NetprobeReport
import NetprobeSystem
import NetprobeNetwork
import NetprobeCheck
import NetprobeWatch
import Testing

/// Which path is the machine's own is the kernel's answer (`ip route get`, policy rules and
/// tables applied), never a ranking of default routes by metric: the plain check and
/// `--all-paths` must agree about it on the layouts VPNs on Linux use.
@Suite struct PolicyRoutingTests {
    static let eth0 = Kit.link("eth0", index: 2, v4: "198.51.100.2")

    static func tunnel(carrier: Bool) -> NetworkInterface {
        var link = Kit.link("vpn0", index: 9, v4: "203.0.113.9")
        link.type = .tunnel
        link.carrier = carrier
        link.operstate = carrier ? "unknown" : "down"
        return link
    }

    /// wg-quick's full tunnel: main's default through eth0, table 51820's through vpn0, and
    /// the kernel sending every unmarked packet into the tunnel.
    static func wgQuick(tunnelAlive: Bool) -> PathSnapshot {
        PathSnapshot(
            interfaces: [eth0, tunnel(carrier: tunnelAlive)],
            defaultRoutes: [Kit.route(.ipv4, "eth0", index: 2, metric: 100),
                            DefaultRoute(family: .ipv4, gateway: nil, interface: "vpn0", interfaceIndex: 9, metric: 0, table: 51820)],
            kernelRoutes: [Kit.kernel(.ipv4, "vpn0", index: 9, table: 51820), Kit.kernel(.ipv6, nil)], dns: Kit.dns)
    }

    @Test func deadFullTunnelIsOfflineInBothChecks() throws {
        let runner = ScriptedRunner { _, _ in Kit.ok(5) }
        let plain = try Kit.checker(Self.wgQuick(tunnelAlive: false), runner).run(Kit.options())
        #expect(plain.verdict == .offline && plain.reason == .noLink && runner.rounds == 0)
        #expect(plain.paths.map(\.interface) == ["vpn0"])

        let all = try Kit.checker(Self.wgQuick(tunnelAlive: false), runner).run(Kit.options(allPaths: true))
        #expect(all.paths.map { "\($0.interface ?? "-")/\($0.family?.rawValue ?? "-")" } == ["vpn0/ipv4", "eth0/ipv4"])
        #expect(all.paths.map(\.isDefault) == [true, false])
        #expect(all.paths[0].conclusion.reason == .noLink && all.paths[1].conclusion.verdict == .online)
        // The uplink works, but it is not where the machine's traffic goes.
        #expect(all.verdict == .offline && all.reason == .noLink)
        #expect(!runner.requests.contains { $0.interface == "vpn0" })
    }

    @Test func workingFullTunnelIsTheDefaultPath() throws {
        let runner = ScriptedRunner { _, _ in Kit.ok(5) }
        let plain = try Kit.checker(Self.wgQuick(tunnelAlive: true), runner).run(Kit.options())
        #expect(plain.verdict == .online && plain.paths.map(\.interface) == ["vpn0"])
        // The plain check leaves routing to the kernel: nothing bound.
        #expect(runner.requests.allSatisfy { $0.interface == nil })

        let all = try Kit.checker(Self.wgQuick(tunnelAlive: true), runner).run(Kit.options(allPaths: true))
        #expect(all.paths.filter(\.isDefault).map(\.interface) == ["vpn0"])
        #expect(all.verdict == .online && all.answer.interface == "vpn0")
    }

    @Test func aRuleToAnotherTableBeatsMainsLowerMetric() throws {
        // main: a dead tunnel at metric 50; table 200 (chosen by a rule for everything): eth0.
        let snapshot = PathSnapshot(
            interfaces: [Self.eth0, Self.tunnel(carrier: true)],
            defaultRoutes: [DefaultRoute(family: .ipv4, gateway: nil, interface: "vpn0", interfaceIndex: 9, metric: 50, table: 254),
                            DefaultRoute(family: .ipv4, gateway: "198.51.100.1", interface: "eth0", interfaceIndex: 2, metric: 300, table: 200)],
            kernelRoutes: [Kit.kernel(.ipv4, "eth0", index: 2, table: 200), Kit.kernel(.ipv6, nil)], dns: Kit.dns)
        // Only what leaves through eth0 (or unbound, where the kernel picks eth0) is answered.
        let runner = ScriptedRunner { _, request in request.interface == "vpn0" ? nil : Kit.ok(5) }
        let plain = try Kit.checker(snapshot, runner).run(Kit.options(timeout: 2))
        #expect(plain.verdict == .online && plain.paths.map(\.interface) == ["eth0"])

        let all = try Kit.checker(snapshot, runner).run(Kit.options(timeout: 2, allPaths: true))
        #expect(all.paths.map(\.interface) == ["eth0", "vpn0"] && all.paths.map(\.isDefault) == [true, false])
        #expect(all.verdict == .online && all.paths[1].conclusion.verdict == .offline)
    }

    @Test func aTunnelWithoutADefaultRouteIsStillTheMachinesPath() throws {
        // OpenVPN's 0.0.0.0/1 + 128.0.0.0/1: no default route names vpn0, the kernel does.
        let snapshot = PathSnapshot(
            interfaces: [Self.eth0, Self.tunnel(carrier: true)], defaultRoutes: [Kit.route(.ipv4, "eth0", index: 2, metric: 100)],
            kernelRoutes: [Kit.kernel(.ipv4, "vpn0", index: 9), Kit.kernel(.ipv6, nil)], dns: Kit.dns)
        let runner = ScriptedRunner { _, request in request.interface == "eth0" ? Kit.ok(5) : nil }
        let all = try Kit.checker(snapshot, runner).run(Kit.options(timeout: 2, allPaths: true))
        #expect(all.paths.map(\.interface) == ["vpn0", "eth0"] && all.paths.map(\.isDefault) == [true, false])
        #expect(all.verdict == .offline && all.reason == .timeout)
    }

    @Test func noWayOutIsOfflineAtOnceAndAllPathsAgree() throws {
        // A blackhole (or unreachable, prohibit) in front of main's default route.
        var snapshot = Kit.dualStack
        snapshot.kernelRoutes = [RouteAnswer(family: .ipv4, destination: "8.8.8.8", refusal: .blackhole),
                                 RouteAnswer(family: .ipv6, destination: "2001:4860:4860::8888", refusal: .unreachable)]
        let runner = ScriptedRunner { _, _ in Kit.ok(5) }
        let plain = try Kit.checker(snapshot, runner).run(Kit.options())
        #expect(plain.verdict == .offline && plain.reason == .noDefaultRoute && runner.rounds == 0)

        let all = try Kit.checker(snapshot, runner).run(Kit.options(allPaths: true))
        // eth0's default routes are still probed as paths of their own, but none is the
        // machine's: the plain check's down path is, and it answers.
        #expect(all.paths.filter(\.isDefault).count == 1)
        #expect(all.answer.interface == nil && all.answer.family == nil && all.verdict == .offline && all.reason == .noDefaultRoute)
    }
}
