import NetprobeWire
import NetprobeVerdict
import NetprobeOutput
import NetprobeReport
import NetprobeSystem
import NetprobeNetwork
import NetprobeCheck
import NetprobeWatch
import Testing

/// `VerdictEngine.conclude`: the whole answer of a path, including what used to be patched
/// in after the engine (no-probes, the canary's dns-hijack, the portal location, insights).
@Suite struct ConclusionTests {
    static let pass = GateResult.pass(families: [.ipv4], interfaces: ["eth0"])
    static let five = ["apple", "google", "firefox", "microsoft", "gnome"]

    static func findings(_ settled: [Settled], pending: [String] = [], gate: GateResult = pass,
                         canary: Bool? = nil, canaryPending: Bool = false) -> PathFindings {
        PathFindings(quorum: 2, gate: gate, settled: settled.map(\.evidence), pending: pending.map(Fixtures.spec),
                     canary: canary.map { DNSCanaryReport(name: "netprobe-x.invalid", resolved: $0, address: nil) },
                     canaryPending: canaryPending)
    }

    struct Row: Sendable, CustomTestStringConvertible {
        var label: String
        var findings: PathFindings
        var verdict: Verdict
        var reason: Reason
        var isFinal = true
        var testDescription: String { label }
    }

    static let rows: [Row] = [
        Row(label: "gate down: the gate's reason, final, nothing judged",
            findings: findings([], pending: five, gate: .offline(.noDefaultRoute)), verdict: .offline, reason: .noDefaultRoute),
        Row(label: "gate passed but no probe applies: no-probes",
            findings: findings([]), verdict: .offline, reason: .noProbes),
        Row(label: "nothing settled yet, probes pending: not final, not no-probes",
            findings: findings([], pending: five), verdict: .offline, reason: .noProbes, isFinal: false),
        Row(label: "wrong content with a resolving canary: dns-hijack",
            findings: findings(five.map { .portal($0, .wrongContent) }, canary: true), verdict: .portal, reason: .dnsHijack),
        Row(label: "wrong content with an honest resolver: wrong-content",
            findings: findings(five.map { .portal($0, .wrongContent) }, canary: false), verdict: .portal, reason: .wrongContent),
        Row(label: "a redirect outranks the canary",
            findings: findings(five.map { .portal($0, .redirect) }, canary: true), verdict: .portal, reason: .httpRedirect),
        Row(label: "a resolving canary never makes a verdict alone",
            findings: findings(five.map { .ok($0) }, canary: true), verdict: .online, reason: .probesValidated),
        Row(label: "all timed out", findings: findings(five.map { .fail($0, .timeout) }), verdict: .offline, reason: .timeout),
        Row(label: "wrong content, the canary not yet answered: not final (it may make dns-hijack)",
            findings: findings(five.map { .portal($0, .wrongContent) }, canaryPending: true),
            verdict: .portal, reason: .wrongContent, isFinal: false),
        Row(label: "a redirect does not wait for the canary",
            findings: findings(five.map { .portal($0, .redirect) }, canaryPending: true), verdict: .portal, reason: .httpRedirect),
        Row(label: "online does not wait for the canary",
            findings: findings(five.map { .ok($0) }, canaryPending: true), verdict: .online, reason: .probesValidated),
        Row(label: "offline does not wait for the canary",
            findings: findings(five.map { .fail($0, .timeout) }, canaryPending: true), verdict: .offline, reason: .timeout),
    ]

    /// The probes and the canary answer in either order: the first conclusion that is final
    /// (the one a check reports) is the same.
    @Test(arguments: [true, false])
    func theReasonDoesNotDependOnWhetherTheCanaryOrTheProbesAnswerFirst(_ resolves: Bool) {
        let probes: [Settled] = Self.five.map { .portal($0, .wrongContent) }
        var canaryFirst = Self.findings([], pending: Self.five, canaryPending: true)
        var probesFirst = canaryFirst
        func firstFinal(_ steps: [(inout PathFindings) -> Void], from findings: inout PathFindings) -> Conclusion? {
            for step in steps {
                step(&findings)
                let conclusion = VerdictEngine.conclude(findings)
                if conclusion.isFinal { return conclusion }
            }
            return nil
        }
        let canary: (inout PathFindings) -> Void = { findings in
            findings.canary = DNSCanaryReport(name: "netprobe-x.invalid", resolved: resolves, address: nil)
            findings.canaryPending = false
        }
        let landings: [(inout PathFindings) -> Void] = zip(probes, Self.five).map { probe, name in
            { findings in
                findings.settled.append(probe.evidence)
                findings.pending.removeAll { $0.name == name }
            }
        }
        let early = firstFinal([canary] + landings, from: &canaryFirst)
        let late = firstFinal(landings + [canary], from: &probesFirst)
        #expect(early?.reason == (resolves ? .dnsHijack : .wrongContent))
        #expect(late?.reason == early?.reason)
        #expect(late?.dnsHijack == resolves && early?.dnsHijack == resolves)
    }

    @Test(arguments: rows)
    func concludes(_ row: Row) {
        let conclusion = VerdictEngine.conclude(row.findings)
        #expect(conclusion.verdict == row.verdict)
        #expect(conclusion.reason == row.reason)
        #expect(conclusion.isFinal == row.isFinal)
    }

    @Test func theCanaryMarksTheHijackButNotTheVerdict() {
        let conclusion = VerdictEngine.conclude(Self.findings(Self.five.map { .ok($0) }, canary: true))
        #expect(conclusion.dnsHijack && conclusion.verdict == .online)
    }

    @Test func aPortalIsLocatedByTheConclusionItself() {
        let apple = Fixtures.spec("apple")
        let redirect = Classifier.classify(Fixtures.observation(apple, status: 302, body: "", headers: [("Location", "/login")]), for: apple)
        let conclusion = VerdictEngine.conclude(PathFindings(quorum: 1, gate: Self.pass, settled: [redirect]))
        #expect(conclusion.verdict == .portal && conclusion.portal?.url == "http://captive.apple.com/login")
        #expect(conclusion.portal?.source == "redirect" && conclusion.portal?.probe == "apple")
    }

    @Test func everyReasonHasAMeaningAndAKebabCode() {
        for reason in Reason.allCases {
            #expect(!reason.meaning.isEmpty)
            #expect(reason.rawValue.allSatisfy { $0.isLowercase || $0.isNumber || $0 == "-" })
        }
        #expect(Reason.allCases.filter(\.isPathDown) == [.noLink, .noAddress, .noDefaultRoute])
    }

    @Test func betterVerdictsCompareHigher() {
        #expect(Verdict.offline < .portal && Verdict.portal < .online)
        #expect([Verdict.portal, .online, .offline].max() == .online)
    }
}
