import Foundation
@testable import NetprobeWire
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
        init(_ outcome: DHCPInformExchange.Outcome) { self.outcome = outcome }
        func ask(_ interface: String, _ address: [UInt8], _ hardware: [UInt8]?,
                 _ deadline: ContinuousClock.Instant) -> DHCPInformExchange.Outcome {
            asked.append((interface, address, ContinuousClock.now.duration(to: deadline)))
            return outcome
        }
    }

    static let answered = DHCPInformExchange.Outcome(
        state: .answered, answer: DHCPMessage.InformAnswer(captivePortal: api, nameServers: ["0.0.0.0", "198.51.100.1"],
                                                           server: "198.51.100.1"), durationMs: 1.5)

    static let redirect = ScriptedRunner.Answer(at: .milliseconds(20), status: 302, headers: [("location", "http://login.example/")])
    static let captiveAPI = ScriptedRunner.Answer(at: .milliseconds(30), status: 200,
                                                  body: #"{"captive": true, "user-portal-url": "https://login.example/portal"}"#,
                                                  headers: [("content-type", "application/captive+json")])

    static func check(_ network: Network, capportURL: String? = nil,
                      probe: ScriptedRunner.Answer = redirect) throws -> (Report, ScriptedRunner) {
        let runner = ScriptedRunner { name, _ in name == "#capport" ? captiveAPI : probe }
        let checker = Kit.checker(v4, runner)
        checker.informAsk = network.ask
        return (try checker.run(Kit.options(capportURL: capportURL, families: [.ipv4])), runner)
    }

    @Test func aPortalWithNoKnownAPIAsksTheNetworkOnceAndUsesItsAPI() throws {
        let network = Network(Self.answered)
        let (report, runner) = try Self.check(network)
        #expect(network.asked.count == 1)
        let asked = try #require(network.asked.first)
        #expect(asked.interface == "eth0" && asked.address == [198, 51, 100, 2])
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
        let network = Network(DHCPInformExchange.Outcome(state: .notPermitted, error: "bind 198.51.100.2:68: Permission denied"))
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
