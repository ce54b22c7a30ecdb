import NetprobeWire
import NetprobeVerdict
import NetprobeOutput
import NetprobeReport
import NetprobeSystem
import NetprobeNetwork
import NetprobeCheck
import NetprobeWatch
import Testing

struct ClassifierCase: Sendable, CustomTestStringConvertible {
    var label: String
    var observation: ProbeObservation
    var spec: ProbeSpec
    var outcome: ProbeOutcome
    var errorClass: ErrorClass?
    var bodyMatched: Bool?
    var testDescription: String { label }
}

private func row(_ label: String, _ probe: String, status: Int?, body: String = "", headers: [(String, String)] = [],
                 truncated: Bool = false, error: TransportErrorKind? = nil,
                 _ outcome: ProbeOutcome, _ errorClass: ErrorClass?, matched: Bool?) -> ClassifierCase {
    let spec = Fixtures.spec(probe)
    let observation = Fixtures.observation(spec, status: status, body: body, headers: headers, truncated: truncated, error: error)
    return ClassifierCase(label: label, observation: observation, spec: spec, outcome: outcome, errorClass: errorClass, bodyMatched: matched)
}

private let loginPage = "<html><head><title>Hotel WiFi</title></head><body><form action=/login>Log in</form></body></html>"

@Suite struct ClassifierTests {
    static let expectedAnswers: [ClassifierCase] = ["apple", "google", "firefox", "microsoft", "gnome", "google-https"].map { name in
        let spec = Fixtures.spec(name)
        return ClassifierCase(label: "\(name) real answer", observation: Fixtures.expectedAnswer(name), spec: spec,
                              outcome: .success, errorClass: nil, bodyMatched: spec.expect.body == nil ? nil : true)
    }

    static let answers: [ClassifierCase] = [
        // Portals speaking.
        row("302 with Location", "apple", status: 302, body: "<a href=http://portal.example/>moved</a>",
            headers: [("Location", "http://portal.example/login")], .portal, .redirect, matched: false),
        row("307 on HTTPS", "google-https", status: 307, headers: [("Location", "https://portal.example/")], .portal, .redirect, matched: nil),
        row("302 although the success header says online", "gnome", status: 302,
            headers: [("Location", "http://portal.example/"), ("X-NetworkManager-Status", "online")], .portal, .redirect, matched: false),
        row("511", "apple", status: 511, body: loginPage, .portal, .authRequired, matched: false),
        row("511 where 204 expected", "google", status: 511, .portal, .authRequired, matched: true),
        row("200 login page where 204 expected", "google", status: 200, body: loginPage, .portal, .wrongContent, matched: false),
        row("200 wrong body (contains rule)", "apple", status: 200, body: loginPage, .portal, .wrongContent, matched: false),
        row("200 wrong body (prefix rule)", "firefox", status: 200, body: "<html>success</html>", .portal, .wrongContent, matched: false),
        row("200 wrong body (exact rule)", "microsoft", status: 200, body: "Microsoft Connect Test\n", .portal, .wrongContent, matched: false),
        row("body truncated, exact rule", "microsoft", status: 200, body: "Microsoft Connect Test", truncated: true,
            .portal, .wrongContent, matched: false),
        row("204 with a body where empty expected", "google", status: 204, body: "x", .portal, .wrongContent, matched: false),
        // A broken middlebox, not a portal (Android's lesson).
        row("200 empty body where 204 expected", "google", status: 200, .failure, .emptyBody, matched: true),
        row("200 empty body on HTTPS where 204 expected", "google-https", status: 200, .failure, .emptyBody, matched: nil),
        // Success evidence beyond the plain body.
        row("truncated body still has the prefix", "firefox", status: 200, body: "success and more", truncated: true,
            .success, nil, matched: true),
        row("success header proves success with a wrong body", "gnome", status: 200, body: loginPage,
            headers: [("X-NetworkManager-Status", "online")], .success, nil, matched: false),
        row("success header compared case-insensitively and trimmed", "gnome", status: 200, body: "",
            headers: [("x-networkmanager-status", " Online ")], .success, nil, matched: false),
        row("success header with another value", "gnome", status: 200, body: loginPage,
            headers: [("X-NetworkManager-Status", "offline")], .portal, .wrongContent, matched: false),
        // Dead or erring endpoints.
        row("404", "apple", status: 404, body: "not found", .failure, .http4xx, matched: false),
        row("403 on HTTPS", "google-https", status: 403, .failure, .http4xx, matched: nil),
        row("503", "firefox", status: 503, body: "busy", .failure, .http5xx, matched: false),
        row("500 on HTTPS", "google-https", status: 500, .failure, .http5xx, matched: nil),
        row("1xx final status", "apple", status: 101, .failure, .proto, matched: false),
        row("no status and no error", "apple", status: nil, .failure, .proto, matched: nil),
    ]

    @Test(arguments: expectedAnswers + answers)
    func classify(_ c: ClassifierCase) {
        let evidence = Classifier.classify(c.observation, for: c.spec)
        #expect(evidence.outcome == c.outcome)
        #expect(evidence.errorClass == c.errorClass)
        #expect(evidence.bodyMatched == c.bodyMatched)
        #expect(evidence.skipReason == nil)
        #expect(evidence.spec == c.spec)
        #expect(evidence.observation == c.observation)
    }

    static let transport: [(TransportErrorKind, ErrorClass)] = [
        (.dns, .dns), (.refused, .refused), (.unreachable, .unreachable), (.timeout, .timeout),
        (.tls, .tls), (.reset, .reset), (.proto, .proto), (.other, .other),
    ]

    @Test(arguments: transport)
    func transportErrorIsAFailureOfItsClass(_ kind: TransportErrorKind, _ expected: ErrorClass) {
        for name in ["apple", "google-https"] {
            let spec = Fixtures.spec(name)
            let evidence = Classifier.classify(Fixtures.observation(spec, status: nil, error: kind), for: spec)
            #expect(evidence.outcome == .failure)
            #expect(evidence.errorClass == expected)
            #expect(evidence.bodyMatched == nil)
        }
    }

    /// An error that struck after the status line (a reset mid-body) still makes the probe a failure.
    @Test func transportErrorWinsOverAStatus() {
        let spec = Fixtures.spec("apple")
        let evidence = Classifier.classify(Fixtures.observation(spec, status: 200, body: "Succ", error: .reset), for: spec)
        #expect(evidence.outcome == .failure)
        #expect(evidence.errorClass == .reset)
    }

    @Test func cancelledIsSkippedBecauseDecided() {
        let spec = Fixtures.spec("gnome")
        let evidence = Classifier.classify(Fixtures.observation(spec, status: nil, error: .cancelled), for: spec)
        #expect(evidence.outcome == .skipped)
        #expect(evidence.skipReason == .decided)
        #expect(evidence.errorClass == nil)
        #expect(evidence.bodyMatched == nil)
    }

    @Test func statusListWithSeveralCodes() {
        let spec = ProbeSpec(name: "multi", url: "http://a.example/", operatorName: "a",
                             expect: NetprobeWire.Expectation(statuses: [200, 204], body: .exact("")))
        for status in [200, 204] {
            let evidence = Classifier.classify(Fixtures.observation(spec, status: status), for: spec)
            #expect(evidence.outcome == .success, "status \(status)")
        }
    }
}
