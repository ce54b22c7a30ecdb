import NetprobeWire
import NetprobeVerdict
import NetprobeOutput
import NetprobeSystem
import NetprobeNetwork
@testable import NetprobeCheck
import Testing

/// The check loop sending the built-in probe set in waves (`WavePlan`), on scripted answers in
/// virtual time: what is sent, and that the verdicts stay those of every probe sent at once.
@Suite struct WaveLoopTests {
    /// Every first wave the built-in set allows, by the rank the draw picks.
    static let waves = FirstWaves(DefaultProbes.config().probes, quorum: 2)
    static let ranks = Array(0..<waves.count)
    static func names(_ rank: Int) -> [String] { waves.wave(rank).map(\.name) }
    /// The wave the old fixed plan always sent, and the one the famous hosts make.
    static let firefoxGnomeCloudflare = ranks.first { Set(names($0)) == ["firefox", "gnome", "cloudflare-https"] }!

    static func options(draw rank: Int = firefoxGnomeCloudflare) -> CheckOptions {
        var options = Kit.options(config: DefaultProbes.config())
        options.hedged = true
        options.waveDraw = .fixed(rank)
        return options
    }

    /// The answer each built-in probe expects, after `ms`.
    static func good(_ name: String, _ ms: Int) -> ScriptedRunner.Answer {
        switch name {
        case "apple", "apple-https": ScriptedRunner.Answer(at: .milliseconds(ms), status: 200, body: "<HTML>Success</HTML>")
        case "firefox": ScriptedRunner.Answer(at: .milliseconds(ms), status: 200, body: "success\n")
        case "microsoft": ScriptedRunner.Answer(at: .milliseconds(ms), status: 200, body: "Microsoft Connect Test")
        case "gnome": ScriptedRunner.Answer(at: .milliseconds(ms), status: 200, body: "NetworkManager is online\n")
        default: ScriptedRunner.Answer(at: .milliseconds(ms), status: 204)
        }
    }

    static func redirect(_ ms: Int) -> ScriptedRunner.Answer {
        ScriptedRunner.Answer(at: .milliseconds(ms), status: 302, headers: [("location", "http://login.example/")])
    }

    @Test(arguments: ranks)
    func aHealthyNetworkIsSettledByTheFirstWaveAlone(_ rank: Int) throws {
        let runner = ScriptedRunner { name, _ in Self.good(name, name.hasSuffix("-https") ? 20 : 10) }
        let report = try Kit.checker(Kit.dualStack, runner).run(Self.options(draw: rank))
        #expect(report.verdict == .online && report.reason == .probesValidated)
        #expect(report.partial == false)
        #expect(runner.sent.filter { $0 != DNSCanary.requestName }.sorted() == Self.names(rank).sorted())
        #expect(report.probes.filter { $0.outcome == .skipped }.allSatisfy { $0.skipReason == .decided })
        #expect(report.probes.filter { $0.outcome == .success }.count == 3)
    }

    /// The `.invalid` canary goes with the later waves: a path the first wave settles never sends
    /// it (nothing it says could change the verdict), and one that needs them sends it.
    @Test func theCanaryGoesWithTheLaterWavesOnly() throws {
        let healthy = ScriptedRunner { name, _ in Self.good(name, name.hasSuffix("-https") ? 20 : 10) }
        let settled = try Kit.checker(Kit.dualStack, healthy).run(Self.options())
        #expect(settled.verdict == .online && settled.dnsCanary == nil)
        #expect(!healthy.sent.contains(DNSCanary.requestName), "\(healthy.sent)")

        let failing = ScriptedRunner { name, _ in
            switch name {
            case "firefox": ScriptedRunner.Answer(at: .milliseconds(5), error: .refused)
            case DNSCanary.requestName: ScriptedRunner.Answer(at: .milliseconds(3), error: .dns)
            default: Self.good(name, 10)
            }
        }
        let later = try Kit.checker(Kit.dualStack, failing).run(Self.options())
        #expect(later.verdict == .online)
        #expect(failing.sent.contains(DNSCanary.requestName), "\(failing.sent)")
        #expect(later.dnsCanary?.resolved == false)
    }

    /// A portal seen only as wrong content still asks the canary, and a resolver answering
    /// every name still makes it dns-hijack, as with every probe sent at once.
    @Test(arguments: [true, false])
    func aWrongContentPortalStillAsksTheCanary(_ resolves: Bool) throws {
        let runner = ScriptedRunner { name, _ in
            if name == DNSCanary.requestName {
                return ScriptedRunner.Answer(at: .milliseconds(5), status: resolves ? 200 : nil, error: resolves ? nil : .dns)
            }
            return ScriptedRunner.Answer(at: .milliseconds(10), status: 200, body: "<html>Welcome to the hotel</html>")
        }
        let report = try Kit.checker(Kit.dualStack, runner).run(Self.options())
        #expect(report.verdict == .portal)
        #expect(report.reason == (resolves ? .dnsHijack : .wrongContent), "\(runner.delivered)")
        #expect(report.dnsCanary?.resolved == resolves)
    }

    /// Apple's and Google's hosts let through, plain HTTP and HTTPS; every other operator
    /// intercepted: portal, whichever wave goes first (each asks a third operator).
    @Test(arguments: ranks)
    func aPortalAllowListingTheFamousHostsIsAPortal(_ rank: Int) throws {
        let runner = ScriptedRunner { name, _ in
            switch name {
            case "apple", "google", "apple-https", "google-https": Self.good(name, 10)
            case "cloudflare-https": nil  // HTTPS dropped
            default: Self.redirect(5)
            }
        }
        let report = try Kit.checker(Kit.dualStack, runner).run(Self.options(draw: rank))
        #expect(report.verdict == .portal && report.reason == .httpRedirect, "\(Self.names(rank))")
        #expect(report.portalOperators >= 2)
        #expect(report.portal?.probe != "apple" && report.portal?.probe != "google")
    }

    /// Firefox's and GNOME's hosts let through on :80 and :443, HTTPS to every other host
    /// refused, plain HTTP to them intercepted: the first wave never settles it, whichever it
    /// is, and every probe sent says portal.
    @Test(arguments: ranks)
    func aPortalAllowListingTwoOperatorsIsAPortalWhateverTheDraw(_ rank: Int) throws {
        let runner = ScriptedRunner { name, _ in
            switch name {
            case "firefox", "gnome": Self.good(name, 10)
            case _ where name.hasSuffix("-https"): ScriptedRunner.Answer(at: .milliseconds(3), error: .refused)
            case DNSCanary.requestName: ScriptedRunner.Answer(at: .milliseconds(3), error: .dns)
            default: Self.redirect(5)
            }
        }
        let report = try Kit.checker(Kit.dualStack, runner).run(Self.options(draw: rank))
        #expect(report.verdict == .portal && report.reason == .httpRedirect, "\(Self.names(rank)): \(runner.sent)")
    }

    /// Exactly the first wave's hosts let through: that draw alone is fooled (one in 22).
    @Test(arguments: ranks)
    func aPortalAllowListingOneWaveFoolsThatDrawAlone(_ rank: Int) throws {
        let allowed = Set(Self.names(Self.firefoxGnomeCloudflare))
        let runner = ScriptedRunner { name, _ in
            if allowed.contains(name) { return Self.good(name, 10) }
            if name == DNSCanary.requestName { return ScriptedRunner.Answer(at: .milliseconds(3), error: .dns) }
            return name.hasSuffix("-https") ? nil : Self.redirect(5)
        }
        let report = try Kit.checker(Kit.dualStack, runner).run(Self.options(draw: rank))
        #expect(report.verdict == (rank == Self.firefoxGnomeCloudflare ? .online : .portal), "\(Self.names(rank))")
    }

    /// The commands draw the first wave from the system's random source: across checks, every
    /// wave comes up, and no one wave most of the time.
    @Test func theDefaultDrawVaries() {
        let draws = (0..<600).map { _ in WaveDraw.random.pick(Self.waves.count) }
        #expect(draws.allSatisfy { Self.ranks.contains($0) })
        #expect(Set(draws).count == Self.waves.count)
        let most = Dictionary(grouping: draws, by: { $0 }).values.map(\.count).max() ?? 0
        #expect(most < 100, "one wave \(most) times in 600")
        // A check the commands build draws too: no fixed pick unless a test sets one.
        let options = CheckOptions(config: DefaultProbes.config())
        #expect(Set((0..<8).map { _ in options.waveDraw.pick(1_000_000) }).count > 1)
    }

    @Test func anHTTPSOnlyNetworkIsOnlineFromTheHedgedHTTPS() throws {
        let runner = ScriptedRunner { name, _ in name.hasSuffix("-https") ? Self.good(name, 15) : nil }
        let report = try Kit.checker(Kit.dualStack, runner).run(Self.options())
        #expect(report.verdict == .online && report.partial == false)
        #expect(report.successOperators >= 2)
        #expect(report.probes.filter { !$0.spec.isHTTPS }.allSatisfy { $0.outcome != .portal })
        // Neither the probe time-out nor the deadline: the hedge, then the plain-HTTP grace.
        #expect(runner.delivered.allSatisfy { $0.at < .milliseconds(500) }, "\(runner.delivered)")
    }

    /// The first wave's HTTPS probe failing keeps that wave from settling the path: every
    /// probe goes, and the verdict is what they all say, as before waves.
    @Test func aFailingFirstHTTPSProbeSendsEverything() throws {
        let runner = ScriptedRunner { name, _ in
            name == "cloudflare-https" ? ScriptedRunner.Answer(at: .milliseconds(15), error: .tls) : Self.good(name, 10)
        }
        let report = try Kit.checker(Kit.dualStack, runner).run(Self.options())
        #expect(report.verdict == .online)
        #expect(Set(runner.sent).isSuperset(of: ["apple", "google", "microsoft", "google-https", "apple-https"]), "\(runner.sent)")
        // One operator failing, the others validating: HTTPS works for a quorum, as before waves.
        #expect(report.partial == false)
    }

    @Test func aPlainHTTPFailureSendsEverythingAndTheVerdictIsAsBefore() throws {
        let runner = ScriptedRunner { name, _ in
            name == "firefox" ? ScriptedRunner.Answer(at: .milliseconds(5), error: .refused) : Self.good(name, 10)
        }
        let report = try Kit.checker(Kit.dualStack, runner).run(Self.options())
        #expect(report.verdict == .online)
        #expect(Set(runner.sent).isSuperset(of: ["apple", "google", "microsoft"]), "\(runner.sent)")
    }
}

extension WaveLoopTests {
    /// A port 443 that refuses: the first wave's HTTPS probe refused, before or after its plain
    /// HTTP validated, sends every other probe, and partial rests on every HTTPS operator.
    @Test(arguments: [1, 8])
    func aRefusedFirstHTTPSProbeSendsTheRest(_ refusedMs: Int) throws {
        let rank = Self.ranks.first { Set(Self.names($0)) == ["firefox", "microsoft", "apple-https"] }!
        let runner = ScriptedRunner { name, _ in
            name.hasSuffix("-https") ? ScriptedRunner.Answer(at: .milliseconds(refusedMs), error: .refused) : Self.good(name, 6)
        }
        let report = try Kit.checker(Kit.dualStack, runner).run(Self.options(draw: rank))
        #expect(report.verdict == .online && report.partial == true)
        #expect(Set(runner.sent).isSuperset(of: ["apple", "google", "gnome", "google-https", "cloudflare-https"]), "\(runner.sent)")
    }

    /// Port 443 silently dropped: the first wave's HTTPS grace is the hedge, the HTTPS it sends
    /// is waited for too, and every HTTPS operator's silence makes partial.
    @Test(arguments: ranks)
    func aSilentPort443IsPartial(_ rank: Int) throws {
        let runner = ScriptedRunner { name, _ in
            if name == DNSCanary.requestName { return ScriptedRunner.Answer(at: .milliseconds(3), error: .dns) }
            return name.hasSuffix("-https") ? nil : Self.good(name, 5)
        }
        let report = try Kit.checker(Kit.dualStack, runner).run(Self.options(draw: rank))
        #expect(report.verdict == .online && report.partial == true)
        #expect(report.probes.filter(\.spec.isHTTPS).allSatisfy { $0.outcome == .failure })
        #expect(Set(runner.sent).isSuperset(of: ["google-https", "apple-https", "cloudflare-https"]), "\(runner.sent)")
    }
}
