import Foundation
@testable import NetprobeWire
@testable import NetprobeVerdict
@testable import NetprobeOutput
@testable import NetprobeReport
@testable import NetprobeSystem
@testable import NetprobeNetwork
@testable import NetprobeCheck
@testable import NetprobeWatch
import Testing

/// The configured resolvers fail, the link's are asked (answered here by the test), the probes
/// go again with those answers pinned, and — before `resolver-blocked` — the configured ones
/// are asked once more. The rounds run on the scripted runner; nothing is sent.
@Suite struct LinkResolverFallbackTests {
    /// networkd's link state naming 198.51.100.53 as eth0's resolver; removed at the end.
    final class LinkState {
        let root: String
        init(_ dns: String = "198.51.100.53") throws {
            root = FileManager.default.temporaryDirectory.appendingPathComponent("netprobe-fallback-\(UUID().uuidString)").path
            try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
            try "DNS=\(dns)\n".write(toFile: "\(root)/2", atomically: true, encoding: .utf8)
        }
        deinit { try? FileManager.default.removeItem(atPath: root) }

        var leases: LeaseReader {
            LeaseReader(networkdLinks: root, dhcpcdDirectories: [], dhclientDirectories: [], networkManagerDirectory: "/nonexistent",
                        networkManagerDevices: "/nonexistent")
        }
    }

    static let v4 = PathSnapshot(interfaces: [Kit.link("eth0", index: 2, v4: "198.51.100.2")],
                                 defaultRoutes: [Kit.route(.ipv4, "eth0", index: 2, metric: 100)],
                                 kernelRoutes: [Kit.kernel(.ipv4, "eth0", index: 2)],
                                 dns: DNSConfiguration(servers: ["203.0.113.53"], localStub: false, source: "test"))

    static func options(_ state: LinkState) -> CheckOptions {
        CheckOptions(config: Kit.config, families: [.ipv4], timeout: 10, leases: state.leases)
    }

    /// Answers every name with one documentation address, and counts the questions.
    final class Link: @unchecked Sendable {
        var asked = 0
        func lookUp(_ hosts: [String], _ families: Set<AddressFamily>, _ link: LinkResolvers,
                    _ deadline: ContinuousClock.Instant) -> LinkResolverFallback.Lookup {
            asked += 1
            var lookup = LinkResolverFallback.Lookup()
            for host in hosts { lookup.addresses[host] = ["203.0.113.10"] }
            lookup.server = link.servers.first
            return lookup
        }
    }

    /// Which round a request belongs to: the first (a resolve deadline of 1 s), the link's
    /// (addresses pinned) or the configured resolvers asked again (a deadline of 1.5 s).
    enum Kind { case first, link, again }
    static func kind(_ request: ProbeRequest) -> Kind {
        if !request.pinnedAddresses.isEmpty { return .link }
        return request.resolveWithin == LinkResolverFallback.configuredRetryPatience ? .again : .first
    }

    static let unresolved = ScriptedRunner.Answer(at: .milliseconds(1000), error: .dns)

    static func check(_ state: LinkState, _ snapshot: PathSnapshot = v4,
                      _ script: @escaping (Kind) -> ScriptedRunner.Answer?) throws -> (Report, ScriptedRunner, Link) {
        let runner = ScriptedRunner { _, request in script(kind(request)) }
        let link = Link()
        let checker = Kit.checker(snapshot, runner)
        checker.linkLookUp = link.lookUp
        return (try checker.run(options(state)), runner, link)
    }

    /// A cold stub or a slow first hop: silent for the first second, answering when asked
    /// again. The link's resolvers worked too, but that proves nothing against the configured
    /// ones: online, on the configured resolvers' answers.
    @Test func aSlowFirstAnswerIsNotABlock() throws {
        let state = try LinkState()
        let (report, runner, link) = try Self.check(state) { kind in
            kind == .first ? Self.unresolved : Kit.ok(20)
        }
        #expect(report.verdict == .online && report.reason == .probesValidated)
        #expect(report.resolvers.used == .configured && report.resolvers.linkAsked && report.resolvers.configuredRetried)
        #expect(runner.rounds == 3 && link.asked == 1)
        #expect(report.probes.filter { $0.outcome == .success }.allSatisfy { $0.observation?.resolver == "configured" })
    }

    /// Silent again: the configured resolvers are blocked while the link's work.
    @Test func silentAgainIsResolverBlocked() throws {
        let state = try LinkState()
        let (report, runner, _) = try Self.check(state) { kind in
            switch kind {
            case .first: Self.unresolved
            case .link: Kit.ok(20)
            case .again: ScriptedRunner.Answer(at: .milliseconds(1500), error: .dns)
            }
        }
        #expect(report.verdict == .offline && report.reason == .resolverBlocked)
        #expect(report.resolvers.used == .link && report.resolvers.configuredRetried)
        #expect(runner.rounds == 3)
    }

    /// A portal met through the link's resolvers is the answer at once: nothing is asked again.
    @Test func aPortalThroughTheLinkIsNotAskedAgain() throws {
        let state = try LinkState()
        let (report, runner, _) = try Self.check(state) { kind in
            kind == .first ? Self.unresolved
                : ScriptedRunner.Answer(at: .milliseconds(20), status: 302, headers: [("location", "http://login.example/")])
        }
        #expect(report.verdict == .portal && report.reason == .httpRedirect)
        #expect(report.resolvers.used == .link && !report.resolvers.configuredRetried)
        #expect(runner.rounds == 2)
    }

    /// A stub that forwards to the link's resolvers is never cut short: its first answer is
    /// waited for, however slow, and the link's resolvers are never asked by netprobe.
    @Test func aStubForwardingToTheLinksResolversIsWaitedFor() throws {
        let state = try LinkState()
        var stub = Self.v4
        stub.dns = DNSConfiguration(servers: ["127.0.0.53"], localStub: true, source: "test",
                                    upstreams: ["198.51.100.53", "203.0.113.9"], upstreamsSource: "systemd-resolved")
        let (report, runner, link) = try Self.check(state, stub) { _ in Kit.ok(1500) }
        #expect(report.verdict == .online && !report.resolvers.linkAsked && link.asked == 0)
        #expect(runner.requests.allSatisfy { $0.resolveWithin == nil })
    }

    /// Answers a probe may be sent to.
    @Test(arguments: [
        ("203.0.113.10", true), ("10.66.0.1", true), ("2001:db8::10", true),
        ("127.0.0.1", false), ("127.1.2.3", false), ("0.0.0.0", false), ("224.0.0.1", false), ("255.255.255.255", false),
        ("::1", false), ("::", false), ("ff02::1", false), ("fe80::1", false), ("::ffff:127.0.0.1", false), ("garbage", false),
    ])
    func pinnable(_ row: (String, Bool)) {
        #expect(LinkResolverFallback.pinnable(row.0) == row.1)
    }

    /// The trigger: every probe failed to resolve, not DNS as the most common failure.
    @Test func theLinkIsAskedOnlyWhenEveryProbeFailedToResolve() throws {
        let state = try LinkState()
        let (report, _, link) = try Self.check(state) { kind in
            kind == .first ? Self.unresolved : Kit.ok(20)
        }
        #expect(report.resolvers.linkAsked && link.asked == 1)
        // One probe refused (its name resolved), the others silent: DNS is the most common
        // failure, yet the configured resolvers answered one name.
        let runner = ScriptedRunner { name, request in
            guard Self.kind(request) == .first else { return Kit.ok(20) }
            return name == "a" ? ScriptedRunner.Answer(at: .milliseconds(5), error: .refused) : Self.unresolved
        }
        let mixed = Link()
        let checker = Kit.checker(Self.v4, runner)
        checker.linkLookUp = mixed.lookUp
        let second = try checker.run(Self.options(state))
        #expect(!second.resolvers.linkAsked && mixed.asked == 0)
        // The names cut off at 1 s go again through the configured resolvers, which answer now.
        #expect(second.resolvers.configuredRetried && second.resolvers.used == .configured)
        #expect(second.verdict == .online && second.reason == .probesValidated)
    }

    /// A stub whose cache holds some names (two probes share a host, or a name asked before):
    /// those answer at once, the rest run out of the 1 s cut-off. Asked again with the longer
    /// patience, silent again: the path stays offline (one operator is no quorum), and the link
    /// is never asked (the configured resolvers did answer some names).
    @Test func slowNamesAreAskedAgainOnceThenCount() throws {
        let state = try LinkState()
        let runner = ScriptedRunner { name, request in
            if name == "a" { return Kit.ok(5) }
            return Self.kind(request) == .again ? ScriptedRunner.Answer(at: .milliseconds(1500), error: .dns) : Self.unresolved
        }
        let link = Link()
        let checker = Kit.checker(Self.v4, runner)
        checker.linkLookUp = link.lookUp
        let report = try checker.run(Self.options(state))
        #expect(report.verdict == .offline && report.reason != .resolverBlocked)
        #expect(report.resolvers.configuredRetried && !report.resolvers.linkAsked && link.asked == 0)
        #expect(runner.rounds == 2)
        #expect(!runner.requests.filter { Self.kind($0) == .again }.contains { $0.url.hasPrefix("http://a.") })
    }

    /// Planning alone: which configurations already reach the link's resolvers.
    @Test(arguments: [
        // (configured, local stub, upstreams, their transport, link) -> reaches
        (["198.51.100.53"], false, [String](), nil, ["198.51.100.53"], true),
        (["203.0.113.53"], false, [], nil, ["198.51.100.53"], false),
        (["127.0.0.53"], true, [], nil, ["198.51.100.53"], false),
        (["127.0.0.53"], true, ["198.51.100.53"], nil, ["198.51.100.53"], true),
        (["127.0.0.53"], true, ["198.51.100.53"], "plain", ["198.51.100.53"], true),
        (["127.0.0.53"], true, ["198.51.100.53"], "opportunistic", ["198.51.100.53"], true),
        // DNS over TLS only: a network that drops TLS leaves the link's plain resolvers to ask.
        (["127.0.0.53"], true, ["198.51.100.53"], "tls", ["198.51.100.53"], false),
        (["127.0.0.53"], true, ["1.1.1.1"], nil, ["198.51.100.53"], false),
        (["127.0.0.53"], true, ["198.51.100.53"], nil, ["198.51.100.53", "198.51.100.54"], false),
    ] as [([String], Bool, [String], String?, [String], Bool)])
    func whetherTheMachineAlreadyAsksTheLink(_ row: ([String], Bool, [String], String?, [String], Bool)) {
        let dns = DNSConfiguration(servers: row.0, localStub: row.1, source: "test", upstreams: row.2, upstreamsTransport: row.3)
        #expect(PathPlan.reaches(LinkResolvers(servers: row.4, source: "systemd-networkd", interface: "eth0"), dns) == row.5)
    }
}
