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
    static func options() -> CheckOptions {
        var options = Kit.options(config: DefaultProbes.config())
        options.hedged = true
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

    @Test func aHealthyNetworkIsSettledByTheFirstWaveAlone() throws {
        let runner = ScriptedRunner { name, _ in Self.good(name, name.hasSuffix("-https") ? 20 : 10) }
        let report = try Kit.checker(Kit.dualStack, runner).run(Self.options())
        #expect(report.verdict == .online && report.reason == .probesValidated)
        #expect(report.partial == false)
        #expect(runner.sent.filter { $0 != DNSCanary.requestName }.sorted() == ["cloudflare-https", "firefox", "gnome"])
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
    /// intercepted: portal, from the first wave's two operators at once.
    @Test func aPortalAllowListingTheFamousHostsIsAPortal() throws {
        let runner = ScriptedRunner { name, _ in
            switch name {
            case "apple", "google", "apple-https", "google-https": Self.good(name, 10)
            case "cloudflare-https": nil  // HTTPS dropped
            default: Self.redirect(5)
            }
        }
        let report = try Kit.checker(Kit.dualStack, runner).run(Self.options())
        #expect(report.verdict == .portal && report.reason == .httpRedirect)
        #expect(report.portalOperators >= 2)
        #expect(report.portal?.probe != "apple" && report.portal?.probe != "google")
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

    @Test func aFailingFirstHTTPSOperatorBringsASecond() throws {
        let runner = ScriptedRunner { name, _ in
            name == "cloudflare-https" ? ScriptedRunner.Answer(at: .milliseconds(15), error: .tls) : Self.good(name, 10)
        }
        let report = try Kit.checker(Kit.dualStack, runner).run(Self.options())
        #expect(report.verdict == .online)
        #expect(runner.sent.contains("google-https"), "\(runner.sent)")
        // One operator failing, the others validating: HTTPS works for a quorum, as before waves.
        #expect(report.partial == false)
        #expect(!runner.sent.contains { ["apple", "google", "microsoft"].contains($0) })
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
