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

/// What a verdict row expects of `partial`.
enum PartialExpectation: Sendable {
    case yes, no, unknown
    /// The row is about something else; partial is not judged.
    case unchecked
}

struct VerdictCase: Sendable, CustomTestStringConvertible {
    var label: String
    var quorum: Int = 2
    var settled: [Settled]
    var pending: [String] = []
    var verdict: Verdict
    var reason: String
    var isFinal: Bool = true
    var partial: PartialExpectation = .unchecked
    /// Distinct operators that validated / showed interception.
    var counts: (success: Int, portal: Int)?
    /// Distinct operators whose certificate-verified HTTPS probe validated.
    var httpsCount: Int?
    var testDescription: String { label }
}

/// Every plain-HTTP probe of the default set made by `make`, and the three HTTPS probes by `https`.
private func all(_ make: (String) -> Settled, https: (String) -> Settled) -> [Settled] {
    httpNames.map(make) + httpsNames.map(https)
}

@Suite struct VerdictEngineTests {
    static let cases: [VerdictCase] = [
        VerdictCase(label: "all eight default probes fine", settled: allFine, verdict: .online, reason: "probes-validated",
                    partial: .no, counts: (6, 0), httpsCount: 3),
        VerdictCase(label: "allow-listing portal: apple let through, the rest redirected, HTTPS failing",
                    settled: [.ok("apple")] + ["google", "firefox", "microsoft", "gnome"].map { .portal($0, .redirect) }
                        + [.fail("google-https", .tls)],
                    verdict: .portal, reason: "http-redirect", counts: (1, 4)),
        VerdictCase(label: "allow-listing portal: two let through, two redirected",
                    settled: [.ok("apple"), .ok("microsoft"), .portal("google", .redirect), .portal("firefox", .redirect),
                              .fail("gnome", .timeout), .fail("google-https", .timeout)],
                    verdict: .portal, reason: "http-redirect", counts: (2, 2)),
        // A portal letting through exactly the hosts of the first wave: what that wave alone says
        // is online but not final (the held probes are pending, and may show interception); what
        // every probe says, once a refused HTTPS probe has sent them, is portal.
        VerdictCase(label: "first wave let through, the rest held: online, not final",
                    settled: [.ok("firefox"), .ok("gnome"), .ok("cloudflare-https")],
                    pending: ["apple", "google", "microsoft", "google-https", "apple-https"],
                    verdict: .online, reason: "probes-validated", isFinal: false, counts: (3, 0)),
        VerdictCase(label: "allow-listing portal: two operators' plain HTTP let through, HTTPS refused, the rest redirected",
                    settled: [.ok("firefox"), .ok("gnome"), .fail("cloudflare-https", .refused), .fail("google-https", .refused),
                              .fail("apple-https", .refused)] + ["apple", "google", "microsoft"].map { .portal($0, .redirect) },
                    verdict: .portal, reason: "http-redirect", counts: (2, 3)),
        VerdictCase(label: "allow-listing portal: two operators' hosts let through on 80 and 443, the rest redirected",
                    settled: [.ok("google"), .ok("google-https"), .ok("cloudflare-https"), .fail("apple-https", .timeout)]
                        + ["apple", "firefox", "microsoft", "gnome"].map { .portal($0, .redirect) },
                    verdict: .portal, reason: "http-redirect", counts: (2, 4)),
        VerdictCase(label: "one dead endpoint (timeout)", settled: allFine.map { $0.name == "microsoft" ? .fail("microsoft", .timeout) : $0 },
                    verdict: .online, reason: "probes-validated", partial: .no, counts: (5, 0)),
        VerdictCase(label: "one dead endpoint (refused)", settled: allFine.map { $0.name == "firefox" ? .fail("firefox", .refused) : $0 },
                    verdict: .online, reason: "probes-validated", counts: (5, 0)),
        VerdictCase(label: "one dead endpoint (5xx)", settled: allFine.map { $0.name == "gnome" ? .fail("gnome", .http5xx) : $0 },
                    verdict: .online, reason: "probes-validated", counts: (5, 0)),
        VerdictCase(label: "one lying endpoint (wrong content)",
                    settled: allFine.map { $0.name == "firefox" ? .portal("firefox", .wrongContent) : $0 },
                    verdict: .online, reason: "probes-validated", counts: (5, 1)),
        VerdictCase(label: "one lying endpoint (redirect); its operator's HTTPS validated",
                    settled: allFine.map { $0.name == "apple" ? .portal("apple", .redirect) : $0 },
                    verdict: .online, reason: "probes-validated", counts: (6, 1)),
        VerdictCase(label: "all dead, timeouts dominate",
                    settled: [.fail("apple", .timeout), .fail("google", .timeout), .fail("firefox", .timeout),
                              .fail("microsoft", .refused), .fail("gnome", .dns), .fail("google-https", .tls)],
                    verdict: .offline, reason: "timeout", counts: (0, 0)),
        VerdictCase(label: "all dead, refused+unreachable+reset count as connect-failed",
                    settled: [.fail("apple", .refused), .fail("google", .unreachable), .fail("firefox", .reset),
                              .fail("microsoft", .dns), .fail("gnome", .dns), .fail("google-https", .timeout)],
                    verdict: .offline, reason: "connect-failed"),
        VerdictCase(label: "all dead, 4xx/5xx/empty body count as http-error",
                    settled: [.fail("apple", .http4xx), .fail("google", .emptyBody), .fail("firefox", .http5xx),
                              .fail("microsoft", .dns), .fail("gnome", .tls), .fail("google-https", .tls)],
                    verdict: .offline, reason: "http-error"),
        VerdictCase(label: "all DNS", settled: all({ .fail($0, .dns) }, https: { .fail($0, .dns) }),
                    verdict: .offline, reason: "dns-failed", counts: (0, 0)),
        VerdictCase(label: "tie dns/connect/timeout -> dns",
                    settled: [.fail("apple", .timeout), .fail("google", .refused), .fail("firefox", .dns),
                              .fail("microsoft", .timeout), .fail("gnome", .refused), .fail("google-https", .dns)],
                    verdict: .offline, reason: "dns-failed"),
        VerdictCase(label: "tie connect/timeout -> connect",
                    settled: [.fail("apple", .timeout), .fail("google", .timeout), .fail("firefox", .timeout),
                              .fail("microsoft", .refused), .fail("gnome", .unreachable), .fail("google-https", .reset)],
                    verdict: .offline, reason: "connect-failed"),
        VerdictCase(label: "tie timeout/tls -> timeout",
                    settled: [.fail("apple", .tls), .fail("google", .tls), .fail("firefox", .tls),
                              .fail("microsoft", .timeout), .fail("gnome", .timeout), .fail("google-https", .timeout)],
                    verdict: .offline, reason: "timeout"),
        VerdictCase(label: "tie tls/protocol -> tls",
                    settled: [.fail("apple", .proto), .fail("google", .proto), .fail("firefox", .proto),
                              .fail("microsoft", .tls), .fail("gnome", .tls), .fail("google-https", .tls)],
                    verdict: .offline, reason: "tls-failed"),
        VerdictCase(label: "tie protocol/http -> protocol",
                    settled: [.fail("apple", .http4xx), .fail("google", .http5xx), .fail("firefox", .http5xx),
                              .fail("microsoft", .proto), .fail("gnome", .proto), .fail("google-https", .proto)],
                    verdict: .offline, reason: "protocol-error"),
        VerdictCase(label: "one operator validated, quorum 2",
                    settled: [.ok("apple")] + ["google", "firefox", "microsoft", "gnome", "google-https"].map { .fail($0, .timeout) },
                    verdict: .offline, reason: "quorum-not-met", counts: (1, 0)),
        VerdictCase(label: "two probes of one operator count once",
                    settled: [.ok("google"), .ok("google-https")] + ["apple", "firefox", "microsoft", "gnome"].map { .fail($0, .refused) },
                    verdict: .offline, reason: "quorum-not-met", counts: (1, 0)),
        VerdictCase(label: "quorum 1: one validated operator is enough", quorum: 1,
                    settled: [.ok("microsoft")] + ["apple", "google", "firefox", "gnome", "google-https"].map { .fail($0, .dns) },
                    verdict: .online, reason: "probes-validated", counts: (1, 0)),
        VerdictCase(label: "quorum 1: one intercepted operator is a portal", quorum: 1,
                    settled: allFine.map { $0.name == "apple" ? .portal("apple", .redirect) : $0 },
                    verdict: .portal, reason: "http-redirect", counts: (6, 1)),
        VerdictCase(label: "quorum = operator count, all validated", quorum: 6, settled: allFine,
                    verdict: .online, reason: "probes-validated", counts: (6, 0)),
        VerdictCase(label: "quorum = operator count, one dead", quorum: 6,
                    settled: allFine.map { $0.name == "gnome" ? .fail("gnome", .timeout) : $0 },
                    verdict: .offline, reason: "quorum-not-met", counts: (5, 0)),
        VerdictCase(label: "partial: HTTP fine, HTTPS TLS failure",
                    settled: httpNames.map(Settled.ok) + [.fail("google-https", .tls)],
                    verdict: .online, reason: "probes-validated", partial: .yes),
        VerdictCase(label: "partial: HTTPS fine", settled: allFine, verdict: .online, reason: "probes-validated", partial: .no),
        VerdictCase(label: "partial: HTTPS pending (never waited for)", settled: httpNames.map(Settled.ok), pending: ["google-https"],
                    verdict: .online, reason: "probes-validated", isFinal: true, partial: .unknown),
        VerdictCase(label: "partial: HTTPS skipped", settled: httpNames.map(Settled.ok) + [.skipped("google-https")],
                    verdict: .online, reason: "probes-validated", partial: .unknown),
        VerdictCase(label: "partial: nothing validated", settled: all({ .fail($0, .dns) }, https: { .fail($0, .tls) }),
                    verdict: .offline, reason: "dns-failed", partial: .unknown),
        VerdictCase(label: "portal reason: 511 beats redirect beats wrong content",
                    settled: [.portal("apple", .wrongContent), .portal("google", .redirect), .portal("firefox", .authRequired)],
                    pending: ["microsoft", "gnome", "google-https"], verdict: .portal, reason: "http-511"),
        VerdictCase(label: "portal reason: redirect beats wrong content",
                    settled: [.portal("apple", .wrongContent), .portal("google", .redirect), .portal("microsoft", .wrongContent)],
                    verdict: .portal, reason: "http-redirect"),
        VerdictCase(label: "portal reason: wrong content alone",
                    settled: [.portal("apple", .wrongContent), .portal("microsoft", .wrongContent), .fail("gnome", .timeout)],
                    verdict: .portal, reason: "wrong-content"),
        VerdictCase(label: "skipped probes are not evidence", settled: allFine.map { .skipped($0.name) },
                    verdict: .offline, reason: "no-probes", counts: (0, 0)),
    ] + httpsQuorum + partialRows

    /// Certificate-verified HTTPS answers from a quorum of operators make the network online
    /// whatever plain HTTP fails with; only interception seen by a quorum on plain HTTP outranks them.
    static let httpsQuorum: [VerdictCase] = [
        VerdictCase(label: "port 80 dropped: the HTTPS quorum alone is online",
                    settled: all({ .fail($0, .timeout) }, https: Settled.ok),
                    verdict: .online, reason: "probes-validated", partial: .no, counts: (3, 0), httpsCount: 3),
        VerdictCase(label: "every plain-HTTP answer a 500, HTTPS validated",
                    settled: all({ .fail($0, .http5xx) }, https: Settled.ok),
                    verdict: .online, reason: "probes-validated", partial: .no, counts: (3, 0), httpsCount: 3),
        VerdictCase(label: "plain HTTP refused, HTTPS from two operators of three",
                    settled: all({ .fail($0, .refused) }, https: { $0 == "apple-https" ? .fail($0, .tls) : .ok($0) }),
                    verdict: .online, reason: "probes-validated", partial: .no, counts: (2, 0), httpsCount: 2),
        VerdictCase(label: "one HTTPS operator is no quorum",
                    settled: all({ .fail($0, .timeout) }, https: { $0 == "cloudflare-https" ? .ok($0) : .fail($0, .timeout) }),
                    verdict: .offline, reason: "quorum-not-met", counts: (1, 0), httpsCount: 1),
        VerdictCase(label: "an operator's HTTP and HTTPS probes count once",
                    settled: [.ok("google"), .ok("google-https"), .fail("apple-https", .tls), .fail("cloudflare-https", .tls)]
                        + ["apple", "firefox", "microsoft", "gnome"].map { .fail($0, .timeout) },
                    verdict: .offline, reason: "quorum-not-met", counts: (1, 0), httpsCount: 1),
        VerdictCase(label: "garbage on port 80 (not HTTP), HTTPS validated",
                    settled: all({ .fail($0, .proto) }, https: Settled.ok),
                    verdict: .online, reason: "probes-validated", counts: (3, 0)),
        VerdictCase(label: "one plain-HTTP probe intercepted does not outrank the HTTPS quorum",
                    settled: all({ $0 == "firefox" ? .portal($0, .wrongContent) : .fail($0, .timeout) }, https: Settled.ok),
                    verdict: .online, reason: "probes-validated", partial: .no, counts: (3, 1)),
        VerdictCase(label: "a quorum intercepted on plain HTTP outranks HTTPS that got through (a walled garden)",
                    settled: all({ .portal($0, .redirect) }, https: Settled.ok),
                    verdict: .portal, reason: "http-redirect", partial: .unknown, counts: (3, 5), httpsCount: 3),
        VerdictCase(label: "a 1-4 byte body on every plain-HTTP probe while HTTPS is intercepted stays a portal",
                    settled: all({ .portal($0, .wrongContent) }, https: { .fail($0, .tls) }),
                    verdict: .portal, reason: "wrong-content", counts: (0, 5)),
    ]

    /// `partial`: plain HTTP validated while HTTPS did not reach a quorum of operators (or every
    /// HTTPS operator of a set with fewer than the quorum).
    static let partialRows: [VerdictCase] = [
        VerdictCase(label: "partial: HTTP fine, every HTTPS operator failing",
                    settled: all(Settled.ok, https: { .fail($0, .tls) }),
                    verdict: .online, reason: "probes-validated", partial: .yes, counts: (5, 0), httpsCount: 0),
        VerdictCase(label: "partial: one HTTPS operator of three failing, the other two made the quorum",
                    settled: all(Settled.ok, https: { $0 == "google-https" ? .fail($0, .timeout) : .ok($0) }),
                    verdict: .online, reason: "probes-validated", partial: .no),
        VerdictCase(label: "partial: two HTTPS operators of three failing",
                    settled: all(Settled.ok, https: { $0 == "apple-https" ? .ok($0) : .fail($0, .reset) }),
                    verdict: .online, reason: "probes-validated", partial: .yes),
        VerdictCase(label: "partial: one HTTPS validated, two still running",
                    settled: httpNames.map(Settled.ok) + [.ok("google-https")], pending: ["apple-https", "cloudflare-https"],
                    verdict: .online, reason: "probes-validated", partial: .unknown),
        VerdictCase(label: "partial: one HTTPS failed, two still running that could make the quorum",
                    settled: httpNames.map(Settled.ok) + [.fail("google-https", .tls)], pending: ["apple-https", "cloudflare-https"],
                    verdict: .online, reason: "probes-validated", partial: .unknown),
        VerdictCase(label: "partial: two HTTPS failed, one still running cannot make the quorum",
                    settled: httpNames.map(Settled.ok) + [.fail("google-https", .tls), .fail("apple-https", .tls)],
                    pending: ["cloudflare-https"], verdict: .online, reason: "probes-validated", partial: .yes),
        VerdictCase(label: "partial: a set with one HTTPS operator, which validated",
                    settled: httpNames.map(Settled.ok) + [.ok("google-https")],
                    verdict: .online, reason: "probes-validated", partial: .no),
        VerdictCase(label: "partial: an HTTPS answer showing interception is no validation",
                    settled: all(Settled.ok, https: { $0 == "google-https" ? .portal($0, .redirect) : .fail($0, .tls) }),
                    verdict: .online, reason: "probes-validated", partial: .yes, counts: (5, 1)),
    ]

    @Test(arguments: cases)
    func decide(_ c: VerdictCase) {
        let settled = c.settled.map(\.evidence)
        let pending = c.pending.map(Fixtures.spec)
        let decision = VerdictEngine.decide(quorum: c.quorum, settled: settled, pending: pending)
        #expect(decision.verdict == c.verdict)
        #expect(decision.reason.rawValue == c.reason)
        #expect(decision.isFinal == c.isFinal)
        #expect(decision.quorum == c.quorum)
        switch c.partial {
        case .yes: #expect(decision.partial == true)
        case .no: #expect(decision.partial == false)
        case .unknown: #expect(decision.partial == nil)
        case .unchecked: break
        }
        if let counts = c.counts {
            #expect(decision.successOperators == counts.success)
            #expect(decision.portalOperators == counts.portal)
        }
        if let https = c.httpsCount { #expect(decision.httpsOperators == https) }
        #expect((decision.partialError != nil) == (decision.partial == true))
    }

    /// `partial_error` names every HTTPS probe that did not validate, in name order.
    @Test func partialErrorNamesEveryFailedHTTPSProbe() {
        let settled = all(Settled.ok, https: { $0 == "apple-https" ? .ok($0) : .fail($0, .reset) }).map(\.evidence)
        for order in [settled, settled.reversed()] {
            let decision = VerdictEngine.decide(quorum: 2, settled: order, pending: [])
            #expect(decision.partialError == "cloudflare-https: reset: no answer; google-https: reset: no answer")
        }
    }

    /// Every reason the engine gives is explained to people (text output and man page).
    @Test func everyReasonIsExplained() {
        let known = Set(Reason.allCases.map(\.rawValue))
        let given = Set(Self.cases.map(\.reason) + VerdictFinalityTests.cases.map(\.reason))
            .union(["no-link", "no-address", "no-default-route"])
        #expect(given.subtracting(known).isEmpty, "unexplained: \(given.subtracting(known).sorted())")
        for code in given { #expect(Reason(rawValue: code).map { !$0.meaning.isEmpty } == true) }
    }

    /// Settling order must not matter: the engine sees a set of evidence. (Which probe names
    /// the portal follows report order, by design: the first in the probe set's order.)
    @Test(arguments: cases)
    func orderDoesNotMatter(_ c: VerdictCase) {
        var forward = VerdictEngine.decide(quorum: c.quorum, settled: c.settled.map(\.evidence), pending: c.pending.map(Fixtures.spec))
        var backward = VerdictEngine.decide(quorum: c.quorum, settled: c.settled.reversed().map(\.evidence),
                                            pending: c.pending.reversed().map(Fixtures.spec))
        #expect(forward.portal?.url == backward.portal?.url)
        forward.portal?.probe = nil
        backward.portal?.probe = nil
        #expect(forward == backward)
    }
}
