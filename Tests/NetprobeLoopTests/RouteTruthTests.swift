@testable import NetprobeWire
@testable import NetprobeVerdict
@testable import NetprobeOutput
@testable import NetprobeReport
@testable import NetprobeSystem
@testable import NetprobeNetwork
@testable import NetprobeCheck
@testable import NetprobeWatch
import Testing

/// A VPN that routes only the stand-in 8.8.8.8 into its (dead) tunnel: the kernel's answer for
/// the stand-in is tun0, while every probe's own destination routes through eth0. The path and
/// the probes are named after the device the kernel routes their real destinations through.
@Suite struct RouteTruthTests {
    /// The kernel's routes, as `ip route get ADDRESS` would answer them.
    struct RoutedPaths: PathSource {
        var current: PathSnapshot
        var routes: [String: String]
        func snapshot() throws(CheckError) -> PathSnapshot { current }
        func routes(to destinations: [String], interfaces: [NetworkInterface]) -> [String: RouteAnswer] {
            var out: [String: RouteAnswer] = [:]
            for destination in destinations {
                if let device = routes[destination] { out[destination] = RouteAnswer(family: .ipv4, destination: destination, interface: device) }
            }
            return out
        }
    }

    static let vpn = PathSnapshot(
        interfaces: [Kit.link("eth0", index: 2, v4: "198.51.100.2"), Kit.link("tun0", index: 3, v4: "203.0.113.250")],
        defaultRoutes: [Kit.route(.ipv4, "eth0", index: 2, metric: 100)],
        kernelRoutes: [Kit.kernel(.ipv4, "tun0", index: 3)], dns: Kit.dns)

    static func check(allPaths: Bool, _ script: @escaping (ProbeRequest) -> ScriptedRunner.Answer?) throws -> Report {
        let runner = ScriptedRunner { _, request in script(request) }
        let checker = Checker(source: RoutedPaths(current: vpn, routes: ["203.0.113.10": "eth0"]), makeRunner: { runner })
        return try checker.run(Kit.options(timeout: 3, allPaths: allPaths, families: [.ipv4]))
    }

    static func ok(_ request: ProbeRequest) -> ScriptedRunner.Answer? {
        var answer = Kit.ok(10)
        answer.remoteAddress = "203.0.113.10"
        return request.interface == "tun0" ? nil : answer
    }

    @Test func thePlainPathIsNamedAfterTheDeviceItsProbesUsed() throws {
        let report = try Self.check(allPaths: false, Self.ok)
        #expect(report.verdict == .online)
        #expect(report.paths.map(\.interface) == ["eth0"])
        #expect(report.probes.filter { $0.outcome == .success }.allSatisfy { $0.observation?.interface == "eth0" })
        #expect(report.path.kernelRoute(.ipv4)?.interface == "tun0")
    }

    @Test func allPathsTakesTheMachinesOwnPathFromTheProbesDestinations() throws {
        let report = try Self.check(allPaths: true, Self.ok)
        #expect(report.paths.map { "\($0.interface ?? "-") \($0.isDefault)" }.sorted() == ["eth0 true", "tun0 false"])
        #expect(report.verdict == .online)
    }

    /// Nothing connected: nothing is known beyond the stand-in, which stands.
    @Test func withoutAnAddressTheStandInStands() throws {
        let report = try Self.check(allPaths: false) { _ in ScriptedRunner.Answer(at: .milliseconds(5), error: .dns) }
        #expect(report.paths.map(\.interface) == ["tun0"])
    }

    @Test(arguments: [
        ([String](), nil as String?, nil as String?), (["eth0"], nil, "eth0"), (["eth0", "tun0", "eth0"], "tun0", "eth0"),
        (["eth0", "tun0"], "tun0", "tun0"), (["eth0", "tun0"], "wlan0", "eth0"),
    ])
    func majority(_ row: ([String], String?, String?)) {
        #expect(RouteTruth.majority(row.0, preferring: row.1) == row.2)
    }
}
