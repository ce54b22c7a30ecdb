import Foundation
@testable import NetprobeWire
@testable import NetprobeLinkState
@testable import NetprobeVerdict
@testable import NetprobeOutput
@testable import NetprobeSystem
@testable import NetprobeNetwork
@testable import NetprobeCheck
import Testing

/// A portal whose API the machine did not keep: the network is asked once by DHCPINFORM
/// (answered here by the test, nothing is sent), the API it names is asked on the scripted
/// runner, and the path is concluded again with its answer.
@Suite struct DHCPInformFallbackTests {
    static let v4 = PathSnapshot(interfaces: [Kit.link("eth0", index: 2, v4: "198.51.100.2")],
                                 defaultRoutes: [Kit.route(.ipv4, "eth0", index: 2, metric: 100)],
                                 kernelRoutes: [Kit.kernel(.ipv4, "eth0", index: 2)],
                                 dns: DNSConfiguration(servers: ["203.0.113.53"], localStub: false, source: "test"))
    static let api = "https://capport.example/api"

    /// The network's side: records each DHCPINFORM asked for and gives one outcome.
    final class Network: @unchecked Sendable {
        let outcome: DHCPInformExchange.Outcome
        var asked: [(interface: String, address: [UInt8], bound: Duration)] = []
        var servers: [[UInt8]?] = []
        init(_ outcome: DHCPInformExchange.Outcome) { self.outcome = outcome }
        func ask(_ interface: String, _ address: [UInt8], _ hardware: [UInt8]?, _ server: [UInt8]?,
                 _ deadline: ContinuousClock.Instant) -> DHCPInformExchange.Outcome {
            asked.append((interface, address, ContinuousClock.now.duration(to: deadline)))
            servers.append(server)
            return outcome
        }
    }

    static let answered = DHCPInformExchange.Outcome(
        state: .answered, answer: DHCPMessage.InformAnswer(captivePortal: api, nameServers: ["0.0.0.0", "198.51.100.1"],
                                                           server: "198.51.100.1"), durationMs: 1.5)

    /// dhclient's leases for the interfaces of `v4` and `Kit.twoUplinks`, each naming its server.
    final class Leases {
        let root: String
        init(_ entries: [(interface: String, address: String, server: String)] = [("eth0", "198.51.100.2", "198.51.100.1"),
                                                                                  ("wlan0", "203.0.113.2", "203.0.113.1")]) throws {
            root = FileManager.default.temporaryDirectory.appendingPathComponent("netprobe-inform-\(UUID().uuidString)").path
            try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
            for entry in entries {
                try "lease {\n  interface \"\(entry.interface)\";\n  fixed-address \(entry.address);\n  option dhcp-server-identifier \(entry.server);\n  expire never;\n}\n"
                    .write(toFile: "\(root)/dhclient.\(entry.interface).leases", atomically: true, encoding: .utf8)
            }
        }
        deinit { try? FileManager.default.removeItem(atPath: root) }

        func reader(networkdLinks: String = "/nonexistent") -> LeaseReader {
            LeaseReader(networkdLinks: networkdLinks, dhcpcdDirectories: [], dhclientDirectories: [root],
                        networkManagerDirectory: "/nonexistent", networkManagerDevices: "/nonexistent")
        }
    }

    static func options(_ leases: Leases, allPaths: Bool = false, capportURL: String? = nil) -> CheckOptions {
        var options = Kit.options(capportURL: capportURL, allPaths: allPaths, families: [.ipv4])
        options.leases = leases.reader()
        return options
    }

    static let redirect = ScriptedRunner.Answer(at: .milliseconds(20), status: 302, headers: [("location", "http://login.example/")])
    static let captiveAPI = ScriptedRunner.Answer(at: .milliseconds(30), status: 200,
                                                  body: #"{"captive": true, "user-portal-url": "https://login.example/portal"}"#,
                                                  headers: [("content-type", "application/captive+json")])

    static func check(_ network: Network, capportURL: String? = nil,
                      probe: ScriptedRunner.Answer = redirect) throws -> (Report, ScriptedRunner) {
        let runner = ScriptedRunner { name, _ in name == "#capport" ? captiveAPI : probe }
        let checker = Kit.checker(v4, runner)
        checker.informAsk = network.ask
        let leases = try Leases()
        return (try withExtendedLifetime(leases) { try checker.run(options(leases, capportURL: capportURL)) }, runner)
    }

    @Test func aPortalWithNoKnownAPIAsksTheNetworkOnceAndUsesItsAPI() throws {
        let network = Network(Self.answered)
        let (report, runner) = try Self.check(network)
        #expect(network.asked.count == 1)
        let asked = try #require(network.asked.first)
        #expect(asked.interface == "eth0" && asked.address == [198, 51, 100, 2] && network.servers == [[198, 51, 100, 1]])
        #expect(asked.bound <= DHCPInformReport.bound)
        // The redirect stays the reason; the API's user-portal-url is where to log in.
        #expect(report.verdict == .portal && report.reason == .httpRedirect)
        #expect(report.portal?.url == "https://login.example/portal" && report.portal?.source == "capport")
        #expect(report.capport?.source == "dhcpinform" && report.capport?.uri == Self.api && report.capport?.interface == "eth0")
        #expect(report.inform?.state == .answered && report.inform?.server == "198.51.100.1")
        // 0.0.0.0 is no resolver: the one after it is kept.
        #expect(report.inform?.nameServers == ["198.51.100.1"])
        #expect(report.resolvers.link == ["198.51.100.1"] && report.resolvers.linkSource == "dhcpinform")
        #expect(runner.requests.filter { $0.name.hasSuffix("#capport") }.count == 1)
    }

    /// Two uplinks, each behind a portal with no API known (--all-paths): one DHCPINFORM for
    /// the whole check, on the kernel's own way out.
    @Test func atMostOneAskPerCheck() throws {
        let network = Network(DHCPInformExchange.Outcome(state: .noAnswer, error: "no DHCPACK within 500 ms"))
        let runner = ScriptedRunner { name, _ in name == "#capport" ? Self.captiveAPI : Self.redirect }
        let checker = Kit.checker(Kit.twoUplinks, runner)
        checker.informAsk = network.ask
        let leases = try Leases()
        let report = try withExtendedLifetime(leases) { try checker.run(Self.options(leases, allPaths: true)) }
        #expect(report.paths.filter { $0.conclusion.verdict == .portal }.count == 2)
        #expect(network.asked.map(\.interface) == ["eth0"])
        #expect(report.paths.compactMap(\.inform).map(\.interface) == ["eth0"])
    }

    /// A static address (no lifetime: no DHCP client configured it): nothing is sent, the
    /// portal is concluded at once, and the report says why. A later path with a leased
    /// address is still asked.
    @Test func aStaticAddressIsNeverAskedFrom() throws {
        var fixed = Self.v4
        fixed.interfaces[0] = Kit.link("eth0", index: 2, v4: "198.51.100.2", staticV4: true)
        let network = Network(Self.answered)
        let checker = Kit.checker(fixed, ScriptedRunner { _, _ in Self.redirect })
        checker.informAsk = network.ask
        let report = try checker.run(Kit.options(families: [.ipv4]))
        #expect(report.verdict == .portal && report.reason == .httpRedirect && network.asked.isEmpty)
        #expect(report.inform?.state == .staticAddress && report.inform?.clientAddress == "198.51.100.2")
        #expect(report.inform?.durationMs == nil && report.capport == nil)

        var mixed = Kit.twoUplinks
        mixed.interfaces[0] = Kit.link("eth0", index: 2, v4: "198.51.100.2", v6: "2001:db8::2", staticV4: true)
        let second = Network(Self.answered)
        let both = Kit.checker(mixed, ScriptedRunner { name, _ in name == "#capport" ? Self.captiveAPI : Self.redirect })
        both.informAsk = second.ask
        let leases = try Leases()
        let all = try withExtendedLifetime(leases) { try both.run(Self.options(leases, allPaths: true)) }
        #expect(second.asked.map(\.interface) == ["wlan0"])
        #expect(all.paths.compactMap(\.inform).map(\.state) == [.staticAddress, .answered])
    }

    /// The lease of this network names its server: the DHCPINFORM goes to it (RFC 2131
    /// section 4.4.3). Without a lease naming one, nothing is sent: no answer could be believed.
    @Test func onlyTheServerTheLeaseNamesIsAsked() throws {
        let leases = try Leases([("eth0", "198.51.100.2", "198.51.100.67")])
        let network = Network(Self.answered)
        let checker = Kit.checker(Self.v4, ScriptedRunner { name, _ in name == "#capport" ? Self.captiveAPI : Self.redirect })
        checker.informAsk = network.ask
        let report = try checker.run(Self.options(leases))
        #expect(network.servers == [[198, 51, 100, 67]])
        #expect(report.inform?.server == "198.51.100.67", "the server the lease names, whoever answered")

        let none = Network(Self.answered)
        let bare = Kit.checker(Self.v4, ScriptedRunner { _, _ in Self.redirect })
        bare.informAsk = none.ask
        let unknown = try bare.run(Kit.options(families: [.ipv4]))
        #expect(none.asked.isEmpty && unknown.capport == nil)
        #expect(unknown.verdict == .portal && unknown.portal?.url == "http://login.example/")
        #expect(unknown.inform?.state == .noServer && unknown.inform?.server == nil)
        #expect(unknown.inform?.error == "not sent: no lease of eth0 names its DHCP server")
    }

    /// The server comes from the leases the check read when it planned the path (the owners
    /// asked once): the lease file is gone by the time the DHCPINFORM goes, and it still goes
    /// to the server the lease named.
    @Test func theLeasesAreReadOnceACheck() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("netprobe-inform-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let lease = "\(directory)/dhclient.eth0.leases"
        try "lease {\n  interface \"eth0\";\n  fixed-address 198.51.100.2;\n  option dhcp-server-identifier 198.51.100.67;\n  expire never;\n}\n"
            .write(toFile: lease, atomically: true, encoding: .utf8)
        var options = Kit.options(families: [.ipv4])
        options.leases = LeaseReader(networkdLinks: "/nonexistent", dhcpcdDirectories: [], dhclientDirectories: [directory],
                                     networkManagerDirectory: "/nonexistent")
        let network = Network(Self.answered)
        let checker = Kit.checker(Self.v4, ScriptedRunner { name, _ in
            try? FileManager.default.removeItem(atPath: lease)
            return name == "#capport" ? Self.captiveAPI : Self.redirect
        })
        checker.informAsk = network.ask
        _ = try checker.run(options)
        #expect(!FileManager.default.fileExists(atPath: lease), "the probes ran before the DHCPINFORM")
        #expect(network.servers == [[198, 51, 100, 67]])
    }

    @Test func anUnusableOption114IsSaidSoAndNeverAsked() throws {
        let network = Network(DHCPInformExchange.Outcome(state: .answered,
                                                         answer: DHCPMessage.InformAnswer(captivePortalUnusable: true)))
        let (report, runner) = try Self.check(network)
        #expect(report.capport == nil && runner.rounds == 1 && report.inform?.captivePortal == nil)
        #expect(report.inform?.error?.hasPrefix("option 114 of the answer is no URI") == true)
    }

    /// The portal's path leaves through a tunnel: no DHCP server sits at its far end.
    @Test func aTunnelIsNeverAsked() throws {
        var tunnel = Self.v4
        tunnel.interfaces[0].type = .tunnel
        let network = Network(Self.answered)
        let checker = Kit.checker(tunnel, ScriptedRunner { _, _ in Self.redirect })
        checker.informAsk = network.ask
        let report = try checker.run(Kit.options(families: [.ipv4]))
        #expect(report.verdict == .portal && network.asked.isEmpty && report.inform == nil)
    }

    /// The configured resolver is blocked and the portal was found through the link's: the
    /// API the network names is looked up through the link's resolver too, and pinned.
    @Test func behindABlockedResolverTheAPIsNameGoesThroughTheLink() throws {
        let state = try LinkResolverFallbackTests.LinkState()
        let runner = ScriptedRunner { name, request in
            if name == "#capport" { return request.pinnedAddresses.isEmpty ? nil : Self.captiveAPI }
            return LinkResolverFallbackTests.kind(request) == .first ? LinkResolverFallbackTests.unresolved : Self.redirect
        }
        let checker = Kit.checker(Self.v4, runner)
        let link = LinkResolverFallbackTests.Link()
        checker.linkLookUp = link.lookUp
        let network = Network(Self.answered)
        checker.informAsk = network.ask
        let leases = try Leases()
        var options = LinkResolverFallbackTests.options(state)
        options.leases = leases.reader(networkdLinks: state.root)
        let report = try checker.run(options)
        #expect(report.resolvers.used == .link && network.asked.count == 1)
        #expect(link.asked == 2, "the probes' names, then the API's")
        #expect(report.capport?.source == "dhcpinform" && report.capport?.state == .answered)
        #expect(report.portal?.url == "https://login.example/portal")
        let api = try #require(runner.requests.first { $0.name.hasSuffix("#capport") })
        #expect(api.pinnedAddresses == ["203.0.113.10"])
    }

    @Test func anOnlineNetworkIsNeverAsked() throws {
        let network = Network(Self.answered)
        let (report, _) = try Self.check(network, probe: Kit.ok(10))
        #expect(report.verdict == .online && network.asked.isEmpty && report.inform == nil)
    }

    @Test func aKnownAPIIsNotAskedFor() throws {
        let network = Network(Self.answered)
        let (report, _) = try Self.check(network, capportURL: Self.api)
        #expect(report.verdict == .portal && network.asked.isEmpty && report.inform == nil)
        #expect(report.capport?.source == "option")
    }

    /// Without the privilege, the report says so and the portal stands as the probes found it.
    @Test func withoutThePrivilegeThePortalStandsAndTheReportSaysWhy() throws {
        let network = Network(DHCPInformExchange.Outcome(state: .notPermitted, error: "bind 0.0.0.0:68: Permission denied"))
        let (report, runner) = try Self.check(network)
        #expect(report.verdict == .portal && report.reason == .httpRedirect && report.portal?.url == "http://login.example/")
        #expect(report.inform?.state == .notPermitted && report.inform?.error?.contains("Permission denied") == true)
        #expect(report.capport == nil && runner.rounds == 1)
    }

    @Test func anAnswerWithoutOption114ChangesNothingButSaysSo() throws {
        let network = Network(DHCPInformExchange.Outcome(state: .answered, answer: DHCPMessage.InformAnswer(nameServers: ["203.0.113.53"])))
        let (report, runner) = try Self.check(network)
        #expect(report.verdict == .portal && report.reason == .httpRedirect && report.capport == nil)
        #expect(report.inform?.error == "the answer has no option 114")
        // The configured resolver is no news about the link.
        #expect(report.resolvers.link.isEmpty && runner.rounds == 1)
    }
}
