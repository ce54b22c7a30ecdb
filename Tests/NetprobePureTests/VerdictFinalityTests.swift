import NetprobeWire
import NetprobeVerdict
import NetprobeOutput
import NetprobeReport
import NetprobeSystem
import NetprobeNetwork
import NetprobeCheck
import NetprobeWatch
import VerdictTables
import Testing

/// When may netprobe stop and cancel the remaining transfers? Exactly when no outcome
/// of the pending probes could change the verdict: never earlier, and never later
/// (a black-holed probe must not be waited for once the answer is decided).
@Suite struct VerdictFinalityTests {
    static let cases: [VerdictCase] = [
        VerdictCase(label: "two successes, three operators pending: a portal could still outvote",
                    settled: [.ok("apple"), .ok("firefox")], pending: ["google", "microsoft", "gnome", "google-https"],
                    verdict: .online, reason: "probes-validated", isFinal: false, counts: (2, 0)),
        VerdictCase(label: "four of five operators validated, one pending: final",
                    settled: [.ok("apple"), .ok("google"), .ok("google-https"), .ok("firefox"), .ok("microsoft")], pending: ["gnome"],
                    verdict: .online, reason: "probes-validated", isFinal: true, counts: (4, 0)),
        VerdictCase(label: "three validated, two operators pending: two portals could still outvote",
                    settled: [.ok("apple"), .ok("google"), .ok("firefox")], pending: ["microsoft", "gnome"],
                    verdict: .online, reason: "probes-validated", isFinal: false),
        VerdictCase(label: "portal at quorum: final with probes pending",
                    settled: [.portal("google", .redirect), .portal("firefox", .redirect)],
                    pending: ["apple", "microsoft", "gnome", "google-https"], verdict: .portal, reason: "http-redirect", isFinal: true),
        VerdictCase(label: "one portal below quorum, others pending: not final",
                    settled: [.portal("google", .redirect)], pending: ["apple", "firefox", "microsoft", "gnome"],
                    verdict: .portal, reason: "http-redirect", isFinal: false),
        VerdictCase(label: "nothing settled", settled: [], pending: ["apple", "google", "firefox", "microsoft", "gnome", "google-https"],
                    verdict: .offline, reason: "no-probes", isFinal: false, counts: (0, 0)),
        VerdictCase(label: "nothing settled, nothing pending", settled: [], verdict: .offline, reason: "no-probes", isFinal: true),
        VerdictCase(label: "all failed, one operator pending: it alone could still show a portal",
                    settled: ["apple", "google", "firefox", "microsoft"].map { .fail($0, .timeout) }, pending: ["gnome"],
                    verdict: .offline, reason: "timeout", isFinal: false),
        VerdictCase(label: "quorum 1, a pending operator could still show a portal", quorum: 1,
                    settled: [.ok("apple")], pending: ["gnome"], verdict: .online, reason: "probes-validated", isFinal: false),
        VerdictCase(label: "pending probe of an operator already intercepted adds no portal", quorum: 2,
                    settled: [.portal("google", .redirect), .ok("apple"), .ok("firefox"), .ok("microsoft"), .ok("gnome")],
                    pending: ["google-https"], verdict: .online, reason: "probes-validated", isFinal: true),
        VerdictCase(label: "HTTPS of a validated operator pending does not block the answer",
                    settled: [.ok("apple"), .ok("google"), .ok("firefox"), .ok("microsoft"), .fail("gnome", .timeout)],
                    pending: ["google-https"], verdict: .online, reason: "probes-validated", isFinal: true, partial: .unknown),
        VerdictCase(label: "all failed, nothing pending", settled: allFailed, verdict: .offline, reason: "dns-failed", isFinal: true),
        VerdictCase(label: "HTTPS quorum, plain HTTP silent: not final (a portal on plain HTTP would still outrank it)",
                    settled: httpsNames.map(Settled.ok), pending: httpNames,
                    verdict: .online, reason: "probes-validated", isFinal: false, counts: (3, 0), httpsCount: 3),
        VerdictCase(label: "HTTPS quorum, one plain-HTTP operator silent: final",
                    settled: httpsNames.map(Settled.ok) + ["apple", "google", "firefox", "microsoft"].map { .fail($0, .timeout) },
                    pending: ["gnome"], verdict: .online, reason: "probes-validated", isFinal: true),
        VerdictCase(label: "plain HTTP validated, every HTTPS probe pending: final (HTTPS is never awaited as interception)",
                    settled: httpNames.map(Settled.ok), pending: httpsNames,
                    verdict: .online, reason: "probes-validated", isFinal: true, partial: .unknown),
        VerdictCase(label: "portal at quorum on plain HTTP, HTTPS still running: final at once",
                    settled: [.portal("apple", .redirect), .portal("gnome", .redirect)],
                    pending: ["google", "firefox", "microsoft"] + httpsNames, verdict: .portal, reason: "http-redirect", isFinal: true),
        VerdictCase(label: "every plain-HTTP probe intercepted, HTTPS dropped: final",
                    settled: httpNames.map { .portal($0, .wrongContent) }, pending: httpsNames,
                    verdict: .portal, reason: "wrong-content", isFinal: true),
        VerdictCase(label: "one portal below quorum, HTTPS that could make a quorum running: not final",
                    settled: [.portal("google", .redirect)] + ["apple", "firefox", "microsoft", "gnome"].map { .fail($0, .timeout) },
                    pending: httpsNames, verdict: .portal, reason: "http-redirect", isFinal: false),
    ]

    static var allFailed: [Settled] { allFine.map { .fail($0.name, .dns) } }

    @Test(arguments: cases)
    func finality(_ c: VerdictCase) {
        let decision = VerdictEngine.decide(quorum: c.quorum, settled: c.settled.map(\.evidence), pending: c.pending.map(Fixtures.spec))
        #expect(decision.verdict == c.verdict)
        #expect(decision.reason.rawValue == c.reason)
        #expect(decision.isFinal == c.isFinal)
        if case .unknown = c.partial { #expect(decision.partial == nil) }
        if let counts = c.counts {
            #expect(decision.successOperators == counts.success)
            #expect(decision.portalOperators == counts.portal)
        }
        if let https = c.httpsCount { #expect(decision.httpsOperators == https) }
    }

    /// A final decision is a promise: whatever the pending probes answer, the verdict stays.
    /// Checked by brute force over every outcome of every pending probe, except that an HTTPS
    /// probe is never awaited as possible interception: its answer is certificate-verified, and
    /// behind a portal it fails (ProbeTally).
    @Test(arguments: cases.filter(\.isFinal))
    func finalMeansNoPendingOutcomeChangesIt(_ c: VerdictCase) {
        let settled = c.settled.map(\.evidence)
        let pending = c.pending.map(Fixtures.spec)
        let decision = VerdictEngine.decide(quorum: c.quorum, settled: settled, pending: pending)
        let outcomes: [(ProbeOutcome, ErrorClass?)] = [(.success, nil), (.portal, .redirect), (.failure, .timeout)]
        var combinations: [[ProbeEvidence]] = [[]]
        for spec in pending {
            let possible = spec.isHTTPS ? outcomes.filter { $0.0 != .portal } : outcomes
            combinations = combinations.flatMap { prefix in
                possible.map { prefix + [ProbeEvidence(spec: spec, outcome: $0.0, errorClass: $0.1)] }
            }
        }
        for extra in combinations {
            let later = VerdictEngine.decide(quorum: c.quorum, settled: settled + extra, pending: [])
            #expect(later.verdict == decision.verdict, "\(extra.map { "\($0.spec.name)=\($0.outcome)" })")
        }
    }

    /// Feeding the eight default answers one by one in the set's order (the HTTPS probes, the
    /// slowest, last), online is final once four of the five plain-HTTP operators have validated:
    /// the fifth is not awaited, and the HTTPS probes only get the check loop's bounded grace.
    @Test func stopsBeforeTheLastProbe() {
        var settled: [ProbeEvidence] = []
        var pending = Fixtures.config.probes
        var finalAfter: Int?
        while !pending.isEmpty {
            let spec = pending.removeFirst()
            settled.append(Classifier.classify(Fixtures.expectedAnswer(spec.name), for: spec))
            let decision = VerdictEngine.decide(quorum: 2, settled: settled, pending: pending)
            if decision.isFinal {
                finalAfter = settled.count
                #expect(decision.verdict == .online)
                break
            }
        }
        #expect(pending.map(\.name) == ["gnome"] + httpsNames)
        #expect(finalAfter == 4, "final after \(finalAfter.map(String.init) ?? "never") answers")
    }
}
