import NetprobeWire
import NetprobeVerdict
import NetprobeOutput
import NetprobeReport
import NetprobeSystem
import NetprobeNetwork
import NetprobeCheck
import NetprobeWatch
import Testing

/// The check loop in-process: scripted answers, a fixed kernel view, virtual time.
@Suite struct CheckLoopTests {
    @Test func answersOnceTheVerdictCannotChangeAndSkipsWhatIsLeft() throws {
        // a, b and c validate at once; d never answers; s (HTTPS) answers in time.
        let runner = ScriptedRunner { name, _ in
            switch name {
            case "a", "b", "c": return Kit.ok(10)
            case "s": return Kit.ok(20)
            default: return nil
            }
        }
        let report = try Kit.checker(Kit.dualStack, runner).run(Kit.options())
        #expect(report.verdict == .online && report.reason == .probesValidated)
        // Online is final after three of four operators (d alone cannot make a portal): d is let go.
        #expect(report.probes.filter { $0.outcome == .skipped }.map(\.spec.name) == ["d"])
        #expect(report.probes.first { $0.spec.name == "d" }?.skipReason == .decided)
        #expect(report.partial == false)
        #expect(runner.delivered.allSatisfy { $0.at <= .milliseconds(20) })
    }

    @Test func silentHTTPSGetsABoundedGraceThenCountsAsATimeout() throws {
        let runner = ScriptedRunner { name, _ in name == "s" ? nil : Kit.ok(10) }
        let report = try Kit.checker(Kit.dualStack, runner).run(Kit.options())
        #expect(report.verdict == .online)
        #expect(report.partial == true)
        let https = try #require(report.probes.first { $0.spec.name == "s" })
        #expect(https.outcome == .failure && https.errorClass == .timeout)
        #expect(https.observation?.transportError?.message.hasPrefix("no answer 100 ms after the HTTP probes had validated") == true)
        #expect(report.partialError?.hasPrefix("s: timeout: no answer") == true)
        // The grace ended the round: nothing waited for the overall deadline.
        #expect(runner.delivered.allSatisfy { $0.at < .seconds(1) })
    }

    @Test func httpsAnsweringWithinTheGraceIsHeard() throws {
        let runner = ScriptedRunner { name, _ in name == "s" ? Kit.ok(60) : Kit.ok(10) }
        let report = try Kit.checker(Kit.dualStack, runner).run(Kit.options())
        #expect(report.verdict == .online && report.partial == false)
        #expect(report.probes.first { $0.spec.name == "s" }?.outcome == .success)
    }

    @Test func aPortalIsFinalAtOnceAndNothingWaitsForHTTPS() throws {
        let runner = ScriptedRunner { name, _ in
            if name == "s" { return nil }
            return ScriptedRunner.Answer(at: .milliseconds(5), status: 302, headers: [("location", "http://login.example/")])
        }
        let report = try Kit.checker(Kit.dualStack, runner).run(Kit.options())
        #expect(report.verdict == .portal && report.reason == .httpRedirect)
        #expect(report.portal?.url == "http://login.example/")
        let https = try #require(report.probes.first { $0.spec.name == "s" })
        #expect(https.outcome == .skipped && https.skipReason == .decided)
        #expect(runner.delivered.allSatisfy { $0.at <= .milliseconds(5) })
    }

    /// Port 80 dropped, HTTPS of three operators fine: once HTTPS makes the quorum, the silent
    /// plain-HTTP probes get a bounded grace (a portal would have answered them by then) and
    /// then count as time-outs; the check does not wait for the probe time-out.
    @Test func silentPlainHTTPAfterAnHTTPSQuorumGetsABoundedGrace() throws {
        let runner = ScriptedRunner { name, _ in name.hasPrefix("s") ? Kit.ok(10) : nil }
        let report = try Kit.checker(Kit.dualStack, runner).run(Kit.options(config: Kit.httpsQuorumConfig))
        #expect(report.verdict == .online && report.reason == .probesValidated)
        #expect(report.partial == false)
        for name in ["a", "b", "c", "d"] {
            let probe = try #require(report.probes.first { $0.spec.name == name })
            #expect(probe.outcome == .failure && probe.errorClass == .timeout)
            #expect(probe.observation?.transportError?.message
                .hasPrefix("no answer 100 ms after HTTPS had validated for a quorum of operators") == true)
        }
        #expect(runner.delivered.allSatisfy { $0.at < .seconds(1) })
    }

    /// A portal that answers plain HTTP within that grace still outranks the HTTPS quorum.
    @Test func aPortalOnPlainHTTPWithinTheGraceOutranksTheHTTPSQuorum() throws {
        let runner = ScriptedRunner { name, _ in
            if name.hasPrefix("s") { return Kit.ok(10) }
            return ScriptedRunner.Answer(at: .milliseconds(40), status: 302, headers: [("location", "http://login.example/")])
        }
        let report = try Kit.checker(Kit.dualStack, runner).run(Kit.options(config: Kit.httpsQuorumConfig))
        #expect(report.verdict == .portal && report.reason == .httpRedirect)
        #expect(report.portal?.url == "http://login.example/")
    }

    /// Plain HTTP answered with 500 by a broken box: online from HTTPS, as soon as everything landed.
    @Test func http500EverywhereWithAnHTTPSQuorumIsOnline() throws {
        let runner = ScriptedRunner { name, _ in
            name.hasPrefix("s") ? Kit.ok(20) : ScriptedRunner.Answer(at: .milliseconds(5), status: 500)
        }
        let report = try Kit.checker(Kit.dualStack, runner).run(Kit.options(config: Kit.httpsQuorumConfig))
        #expect(report.verdict == .online && report.partial == false)
        #expect(report.probes.filter { !$0.spec.isHTTPS }.allSatisfy { $0.errorClass == .http5xx })
        #expect(runner.delivered.allSatisfy { $0.at <= .milliseconds(20) })
    }

    /// A portal that names no page: the page to open is the intercepted probe's own URL.
    @Test func aPortalWithoutAURLOffersTheProbePage() throws {
        let runner = ScriptedRunner { name, _ in
            name == "s" ? nil : ScriptedRunner.Answer(at: .milliseconds(5), status: 302)
        }
        let report = try Kit.checker(Kit.dualStack, runner).run(Kit.options())
        #expect(report.verdict == .portal && report.reason == .httpRedirect)
        #expect(report.portal?.source == "probe")
        #expect(report.portal.map { ["http://a.example/check", "http://b.example/check"].contains($0.url ?? "") } == true)
    }

    @Test func theAPIIsAwaitedForItsGraceOnlyAndItsAnswerIsAuthoritative() throws {
        let api = "https://capport.example/api"
        let captive = ScriptedRunner { name, _ in
            name == "#capport"
                ? ScriptedRunner.Answer(at: .milliseconds(300), status: 200, body: #"{"captive": true, "user-portal-url": "https://login.example/"}"#,
                                        headers: [("content-type", "application/captive+json")])
                : Kit.ok(10)
        }
        let report = try Kit.checker(Kit.dualStack, captive).run(Kit.options(capportURL: api))
        #expect(report.verdict == .portal && report.reason == .capportCaptive)
        #expect(report.portal?.url == "https://login.example/" && report.portal?.source == "capport")

        let silent = ScriptedRunner { name, _ in name == "#capport" ? nil : Kit.ok(10) }
        let late = try Kit.checker(Kit.dualStack, silent).run(Kit.options(capportURL: api))
        #expect(late.verdict == .online)
        #expect(late.capport?.state == .failed && late.capport?.error == "no answer within 1 s of the probes' verdict")
        let apiEnded = try #require(silent.delivered.first { $0.name == "#capport" })
        #expect(apiEnded.at >= .seconds(1) && apiEnded.at < .milliseconds(1100))
    }

    /// Every probe gets a foreign page (a portal seen only as wrong content); the `.invalid`
    /// canary resolves or not, before or after them. The reason depends on what the canary
    /// says, never on whether it answered first.
    @Test(arguments: [(canaryAt: 5, resolves: true), (canaryAt: 50, resolves: true),
                      (canaryAt: 5, resolves: false), (canaryAt: 50, resolves: false)])
    func aWrongContentPortalWaitsForTheCanaryWhicheverAnswersFirst(_ canary: (canaryAt: Int, resolves: Bool)) throws {
        let runner = ScriptedRunner { name, _ in
            if name == DNSCanaryName.request {
                return ScriptedRunner.Answer(at: .milliseconds(canary.canaryAt), status: canary.resolves ? 200 : nil,
                                             error: canary.resolves ? nil : .dns)
            }
            return ScriptedRunner.Answer(at: .milliseconds(10), status: 200, body: "<html>Welcome to the hotel</html>")
        }
        let report = try Kit.checker(Kit.dualStack, runner).run(Kit.options())
        #expect(report.verdict == .portal)
        #expect(report.reason == (canary.resolves ? .dnsHijack : .wrongContent), "\(runner.delivered)")
        #expect(report.dnsCanary?.resolved == canary.resolves)
        // Nothing waited longer than the later of the two answers.
        #expect(runner.delivered.allSatisfy { $0.at <= .milliseconds(max(10, canary.canaryAt)) }, "\(runner.delivered)")
    }

    /// A canary that never answers holds a wrong-content verdict for a short grace only, and the
    /// probes still running are let go at once rather than kept for it.
    @Test func aSilentCanaryHoldsTheVerdictForItsGraceOnly() throws {
        let runner = ScriptedRunner { name, _ in
            switch name {
            case DNSCanaryName.request: return nil
            case "a", "b", "c": return ScriptedRunner.Answer(at: .milliseconds(10), status: 200, body: "<html>Welcome</html>")
            default: return nil
            }
        }
        let report = try Kit.checker(Kit.dualStack, runner).run(Kit.options())
        #expect(report.verdict == .portal && report.reason == .wrongContent)
        #expect(report.dnsCanary?.resolved == nil)
        let canaryEnded = try #require(runner.delivered.first { $0.name == DNSCanaryName.request })
        #expect(canaryEnded.at >= .milliseconds(500) && canaryEnded.at <= .milliseconds(510), "\(runner.delivered)")
        #expect(runner.delivered.filter { $0.name != DNSCanaryName.request }.allSatisfy { $0.at <= .milliseconds(10) },
                "\(runner.delivered)")
    }

    @Test func aDownPathSendsNothingAndNeverStartsTheHTTPClient() throws {
        var made = false
        let checker = Checker(source: FixedPaths(current: Kit.noRoute), makeRunner: {
            made = true
            return ScriptedRunner { _, _ in nil }
        })
        let report = try checker.run(Kit.options())
        #expect(report.verdict == .offline && report.reason == .noDefaultRoute)
        #expect(!made)
        #expect(report.probes.allSatisfy { $0.outcome == .skipped && $0.skipReason == .gate })
        #expect(report.paths.count == 1 && report.paths[0].interface == nil)
    }

    @Test func noApplicableProbeIsNoProbesNotAFailure() throws {
        let runner = ScriptedRunner { _, _ in Kit.ok(1) }
        let options = Kit.options(interfaces: ["eth0"])
        var config = options.config
        config.probes = config.probes.map { var spec = $0; spec.interface = "wlan0"; return spec }
        var restricted = options
        restricted.config = config
        let report = try Kit.checker(Kit.dualStack, runner).run(restricted)
        #expect(report.verdict == .offline && report.reason == .noProbes)
        #expect(runner.rounds == 0)
    }

    @Test func theDeadlineEndsEverythingAsTimeouts() throws {
        let runner = ScriptedRunner { _, _ in nil }
        let report = try Kit.checker(Kit.dualStack, runner).run(Kit.options(timeout: 0.5))
        #expect(report.verdict == .offline && report.reason == .timeout)
        #expect(report.probes.allSatisfy { $0.outcome == .failure && $0.errorClass == .timeout })
    }

    @Test func theRunnerIsMadeOnceAndReused() throws {
        var made = 0
        let runner = ScriptedRunner { _, _ in Kit.ok(1) }
        let checker = Checker(source: FixedPaths(current: Kit.dualStack), makeRunner: {
            made += 1
            return runner
        })
        for _ in 0..<3 { _ = try checker.run(Kit.options()) }
        #expect(made == 1 && runner.rounds == 3)
    }

    @Test func probesAreBoundLikeThePlainCheckBindsThem() throws {
        let runner = ScriptedRunner { _, _ in Kit.ok(1) }
        _ = try Kit.checker(Kit.dualStack, runner).run(Kit.options(families: [.ipv6], interfaces: ["eth0"]))
        let probes = runner.requests.filter { !$0.name.contains("#") }
        #expect(probes.count == 5)
        #expect(probes.allSatisfy { $0.interface == "eth0" && $0.family == .ipv6 })
    }

    /// Without -4/-6, the plain check resolves only the family the kernel can route (no AAAA
    /// question on an IPv4-only machine, no A on an IPv6-only one), the canary too; with both
    /// routable, libcurl chooses (happy eyeballs).
    @Test(arguments: [(v4: true, v6: false, family: AddressFamily?.some(.ipv4)), (v4: false, v6: true, family: .ipv6),
                      (v4: true, v6: true, family: nil)])
    func namesAreResolvedInTheRoutableFamiliesOnly(_ setup: (v4: Bool, v6: Bool, family: AddressFamily?)) throws {
        let snapshot = PathSnapshot(
            interfaces: [Kit.link("eth0", index: 2, v4: setup.v4 ? "198.51.100.2" : nil, v6: setup.v6 ? "2001:db8::2" : nil)],
            defaultRoutes: [Kit.route(.ipv4, "eth0", index: 2, metric: 100), Kit.route(.ipv6, "eth0", index: 2, metric: 100)]
                .filter { $0.family == .ipv4 ? setup.v4 : setup.v6 },
            kernelRoutes: [Kit.kernel(.ipv4, setup.v4 ? "eth0" : nil, index: 2), Kit.kernel(.ipv6, setup.v6 ? "eth0" : nil, index: 2)],
            dns: Kit.dns)
        let runner = ScriptedRunner { _, _ in Kit.ok(1) }
        _ = try Kit.checker(snapshot, runner).run(Kit.options())
        #expect(!runner.requests.isEmpty)
        #expect(runner.requests.allSatisfy { $0.family == setup.family }, "\(runner.requests.map(\.family))")
    }
}

/// The canary's request name as the runner sees it (within its path).
enum DNSCanaryName {
    static let request = "#dns-canary"
}

/// watch reports a new portal page, not a different intercepted probe named as the page.
@Suite struct PortalPageChangeTests {
    /// A portal answering 302 with no Location: `first` answers first (then the verdict is final).
    static func probePortal(first: Set<String>) throws -> Report {
        let runner = ScriptedRunner { name, _ in
            if name == "s" { return nil }
            return ScriptedRunner.Answer(at: .milliseconds(first.contains(name) ? 5 : 50), status: 302)
        }
        return try Kit.checker(Kit.dualStack, runner).run(Kit.options())
    }

    @Test func anotherInterceptedProbeIsNoChange() throws {
        let before = try Self.probePortal(first: ["a", "b"])
        let after = try Self.probePortal(first: ["c", "d"])
        #expect(before.portal?.source == "probe" && after.portal?.source == "probe")
        #expect(before.portal?.url == "http://a.example/check" && after.portal?.url == "http://c.example/check")
        #expect(WatchRecord.after(before, after, allPaths: false) == nil)
    }

    @Test func aURLTheNetworkGivesIsAChange() throws {
        let before = try Self.probePortal(first: ["a", "b"])
        let runner = ScriptedRunner { name, _ in
            name == "s" ? nil : ScriptedRunner.Answer(at: .milliseconds(5), status: 302, headers: [("location", "http://login.example/")])
        }
        let after = try Kit.checker(Kit.dualStack, runner).run(Kit.options())
        #expect(WatchRecord.after(before, after, allPaths: false)?.changed == ["portal_url"])
    }
}
