import NetprobeWire
import NetprobeVerdict
import Testing

/// The waves a path sends its probes in: which go first, and what brings out the rest.
@Suite struct WavePlanTests {
    static let specs = DefaultProbes.config().probes
    static func spec(_ name: String) -> ProbeSpec { specs.first { $0.name == name }! }

    enum Answer { case ok, portal, fail }

    struct Case: Sendable, CustomTestStringConvertible {
        var label: String
        var answered: [(String, Answer)]
        var running: [String]
        var held: [String]
        var elapsedMs = 10
        var firstAnswerMs: Int? = 5
        var send: [String] = []
        var drop: [String] = []
        var hedgeMs: Int?
        var testDescription: String { label }
    }

    static func state(_ test: Case) -> WavePlan.State {
        let settled = test.answered.map { name, answer in
            switch answer {
            case .ok: ProbeEvidence(spec: spec(name), outcome: .success)
            case .portal: ProbeEvidence(spec: spec(name), outcome: .portal, errorClass: .redirect)
            case .fail: ProbeEvidence(spec: spec(name), outcome: .failure, errorClass: .timeout)
            }
        }
        let findings = PathFindings(quorum: 2, gate: .pass(families: [.ipv4], interfaces: ["eth0"]), settled: settled,
                                    pending: (test.running + test.held).map(spec))
        return WavePlan.State(findings: findings, held: test.held.map(spec), elapsed: .milliseconds(test.elapsedMs),
                              firstAnswer: test.firstAnswerMs.map { .milliseconds($0) })
    }

    static let laterHTTP = ["apple", "google", "microsoft"]
    static let laterHTTPS = ["google-https", "apple-https"]
    static let later = laterHTTP + laterHTTPS

    static let cases: [Case] = [
        Case(label: "nothing answered yet: the hedge waits for the ceiling", answered: [],
             running: ["firefox", "gnome", "cloudflare-https"], held: later, firstAnswerMs: nil, hedgeMs: 400),
        Case(label: "one answer: the hedge is twice its time, at least the floor", answered: [("firefox", .ok)],
             running: ["gnome", "cloudflare-https"], held: later, elapsedMs: 5, firstAnswerMs: 5, hedgeMs: 40),
        Case(label: "a slow first answer: twice its time", answered: [("firefox", .ok)],
             running: ["gnome", "cloudflare-https"], held: later, elapsedMs: 100, firstAnswerMs: 100, hedgeMs: 200),
        Case(label: "the hedge has passed: the runner has sent them, still the plan's to let go", answered: [("firefox", .ok)],
             running: ["gnome", "cloudflare-https"], held: later, elapsedMs: 45, firstAnswerMs: 5, hedgeMs: 40),
        Case(label: "healthy: the first wave settles online, HTTPS validated, nothing more is sent",
             answered: [("firefox", .ok), ("gnome", .ok), ("cloudflare-https", .ok)], running: [], held: later, drop: later),
        Case(label: "healthy, HTTPS still running: plain HTTP is not needed, HTTPS waits for its answer",
             answered: [("firefox", .ok), ("gnome", .ok)], running: ["cloudflare-https"], held: later, drop: laterHTTP),
        Case(label: "a plain-HTTP failure: everything, at once", answered: [("firefox", .fail)],
             running: ["gnome", "cloudflare-https"], held: later, send: later),
        Case(label: "interception: everything, at once (the portal shows itself to the rest too)",
             answered: [("firefox", .portal)], running: ["gnome", "cloudflare-https"], held: later, send: later),
        Case(label: "online, the first HTTPS failed: a second HTTPS operator is asked",
             answered: [("firefox", .ok), ("gnome", .ok), ("cloudflare-https", .fail)], running: [], held: later,
             send: ["google-https"], drop: laterHTTP),
        Case(label: "the second validated: a third decides whether HTTPS reaches a quorum",
             answered: [("firefox", .ok), ("gnome", .ok), ("cloudflare-https", .fail), ("google-https", .ok)],
             running: [], held: ["apple-https"], send: ["apple-https"]),
        Case(label: "two HTTPS operators failed: partial is decided, the last is not needed",
             answered: [("firefox", .ok), ("gnome", .ok), ("cloudflare-https", .fail), ("google-https", .fail)],
             running: [], held: ["apple-https"], drop: ["apple-https"]),
        Case(label: "HTTPS validated while plain HTTP is silent: the hedge, not more at once (resumed TLS is fast)",
             answered: [("cloudflare-https", .ok)], running: ["firefox", "gnome"], held: later, hedgeMs: 40),
        Case(label: "a slow first wave settles the path after the hedge: what the hedge sent is let go",
             answered: [("firefox", .ok), ("gnome", .ok), ("cloudflare-https", .ok)], running: [], held: later,
             elapsedMs: 1800, firstAnswerMs: 1750, drop: later),
        Case(label: "more HTTPS already running: only the hedge", answered: [("cloudflare-https", .ok)],
             running: ["firefox", "gnome", "google-https"], held: laterHTTP + ["apple-https"], hedgeMs: 40),
        Case(label: "HTTPS failed alone, plain HTTP not in yet: no trouble, the hedge", answered: [("cloudflare-https", .fail)],
             running: ["firefox", "gnome"], held: later, hedgeMs: 40),
        Case(label: "nothing held: nothing to do", answered: [("firefox", .fail)], running: ["gnome"], held: []),
    ]

    @Test(arguments: cases)
    func step(_ test: Case) {
        let step = WavePlan.next(Self.state(test))
        #expect(Set(step.send) == Set(test.send), "send")
        #expect(Set(step.drop) == Set(test.drop), "drop")
        #expect(step.hedgeAt == test.hedgeMs.map { .milliseconds($0) }, "hedge")
    }

    /// The allow-listing portal lets Apple's and Google's hosts through: the first wave's plain
    /// HTTP must go to others, whatever the rotation.
    @Test(arguments: 0..<6)
    func firstWaveAvoidsAllowListedHosts(_ rotation: Int) {
        let first = WavePlan.firstWave(Self.specs, quorum: 2, rotation: rotation)
        let http = first.filter { !$0.isHTTPS }
        #expect(http.count == 2)
        #expect(Set(http.map(\.operatorName)).count == 2)
        #expect(http.allSatisfy { !["apple", "google", "microsoft"].contains($0.operatorName) }, "\(http.map(\.name))")
        let https = first.filter(\.isHTTPS)
        #expect(https.map(\.name) == ["cloudflare-https"])
    }

    @Test func varyingPickAmongEquals() {
        var specs = Self.specs
        specs.append(ProbeSpec(name: "extra", url: "http://example.test/", operatorName: "extra",
                               expect: Expectation(statuses: [204])))
        let picks = Set((0..<3).map { WavePlan.firstWave(specs, quorum: 2, rotation: $0).filter { !$0.isHTTPS }.map(\.name) })
        #expect(picks.count > 1, "the rotation varies the first wave among hosts portals do not allow-list")
    }

    @Test func smallSetsAreSentWhole() {
        let two = Array(Self.specs.prefix(2))
        #expect(WavePlan.firstWave(two, quorum: 2).map(\.name) == ["apple", "google"])
        let first = WavePlan.firstWave(Self.specs, quorum: 5)
        #expect(first.filter { !$0.isHTTPS }.count == 5)
    }
}
