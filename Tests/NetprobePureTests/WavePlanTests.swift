import NetprobeWire
import NetprobeVerdict
import Testing

/// The waves a path sends its probes in: which go first, and what brings out the rest.
@Suite struct WavePlanTests {
    static let specs = DefaultProbes.config().probes
    static func spec(_ name: String) -> ProbeSpec { specs.first { $0.name == name }! }

    enum Answer { case ok, portal, fail, refused }

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
            case .refused: ProbeEvidence(spec: spec(name), outcome: .failure, errorClass: .refused)
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
    /// Another first wave the draw may pick, and what it holds back.
    static let otherLater = ["google", "firefox", "gnome", "apple-https", "cloudflare-https"]

    static let cases: [Case] = [
        Case(label: "nothing answered yet: the hedge waits for the ceiling", answered: [],
             running: ["firefox", "gnome", "cloudflare-https"], held: later, firstAnswerMs: nil, hedgeMs: 400),
        Case(label: "one answer: the hedge is twice its time, at least the floor", answered: [("firefox", .ok)],
             running: ["gnome", "cloudflare-https"], held: later, elapsedMs: 5, firstAnswerMs: 5, hedgeMs: 40),
        Case(label: "a slow first answer: twice its time", answered: [("firefox", .ok)],
             running: ["gnome", "cloudflare-https"], held: later, elapsedMs: 100, firstAnswerMs: 100, hedgeMs: 200),
        Case(label: "the hedge has passed: the runner has sent them, still the plan's to let go", answered: [("firefox", .ok)],
             running: ["gnome", "cloudflare-https"], held: later, elapsedMs: 45, firstAnswerMs: 5, hedgeMs: 40),
        Case(label: "healthy: every probe of the first wave validated, nothing more is sent",
             answered: [("firefox", .ok), ("gnome", .ok), ("cloudflare-https", .ok)], running: [], held: later, drop: later),
        Case(label: "healthy, another draw: every probe of that wave validated, nothing more is sent",
             answered: [("apple", .ok), ("microsoft", .ok), ("google-https", .ok)], running: [], held: otherLater,
             drop: otherLater),
        Case(label: "plain HTTP all validated, HTTPS still running: it gets the HTTPS grace (x3, 100 ms at least)",
             answered: [("firefox", .ok), ("gnome", .ok)], running: ["cloudflare-https"], held: later, hedgeMs: 110),
        Case(label: "plain HTTP all validated late, HTTPS still running: three times what the check took",
             answered: [("firefox", .ok), ("gnome", .ok)], running: ["cloudflare-https"], held: later, elapsedMs: 50,
             hedgeMs: 200),
        Case(label: "a plain-HTTP failure: everything, at once", answered: [("firefox", .fail)],
             running: ["gnome", "cloudflare-https"], held: later, send: later),
        Case(label: "interception: everything, at once (the portal shows itself to the rest too)",
             answered: [("firefox", .portal)], running: ["gnome", "cloudflare-https"], held: later, send: later),
        Case(label: "both plain HTTP validated, the HTTPS probe refused: the wave does not settle, everything goes",
             answered: [("firefox", .ok), ("gnome", .ok), ("cloudflare-https", .refused)], running: [], held: later,
             send: later),
        Case(label: "both plain HTTP validated, the HTTPS probe failed: everything goes",
             answered: [("firefox", .ok), ("gnome", .ok), ("cloudflare-https", .fail)], running: [], held: later,
             send: later),
        Case(label: "HTTPS validated, one plain-HTTP probe intercepted: everything goes",
             answered: [("google-https", .ok), ("apple", .ok), ("microsoft", .portal)], running: [], held: otherLater,
             send: otherLater),
        Case(label: "HTTPS validated while plain HTTP is silent: the hedge, not more at once (resumed TLS is fast)",
             answered: [("cloudflare-https", .ok)], running: ["firefox", "gnome"], held: later, hedgeMs: 40),
        Case(label: "a slow first wave settles the path after the hedge: what the hedge sent is let go",
             answered: [("firefox", .ok), ("gnome", .ok), ("cloudflare-https", .ok)], running: [], held: later,
             elapsedMs: 1800, firstAnswerMs: 1750, drop: later),
        Case(label: "a probe the hedge sent validated, the first wave still running: still the hedge",
             answered: [("firefox", .ok), ("apple", .ok)], running: ["gnome", "cloudflare-https"],
             held: ["google", "microsoft"] + laterHTTPS, elapsedMs: 60, firstAnswerMs: 5, hedgeMs: 40),
        Case(label: "more HTTPS already running: only the hedge", answered: [("cloudflare-https", .ok)],
             running: ["firefox", "gnome", "google-https"], held: laterHTTP + ["apple-https"], hedgeMs: 40),
        Case(label: "HTTPS failed alone, plain HTTP not in yet: everything goes", answered: [("cloudflare-https", .fail)],
             running: ["firefox", "gnome"], held: later, send: later),
        Case(label: "nothing held: nothing to do", answered: [("firefox", .fail)], running: ["gnome"], held: []),
    ]

    @Test(arguments: cases)
    func step(_ test: Case) {
        let step = WavePlan.next(Self.state(test))
        #expect(Set(step.send) == Set(test.send), "send")
        #expect(Set(step.drop) == Set(test.drop), "drop")
        #expect(step.hedgeAt == test.hedgeMs.map { .milliseconds($0) }, "hedge")
    }
}
