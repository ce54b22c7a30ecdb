@testable import NetprobeWire
@testable import NetprobeVerdict
@testable import NetprobeOutput
@testable import NetprobeReport
@testable import NetprobeSystem
@testable import NetprobeNetwork
@testable import NetprobeCheck
@testable import NetprobeWatch
import Testing

@Suite struct CapportParserTests {
    static func parse(_ json: String) -> Result<CapportAnswer, CapportError> { CapportParser.parse(Array(json.utf8)) }

    @Test func fullCaptiveAnswer() throws {
        let answer = try Self.parse("""
            {"captive": true, "user-portal-url": "https://login.portal.test/portal?id=1",
             "venue-info-url": "http://venue.portal.test/", "can-extend-session": true, "future-key": {"x": [1]}}
            """).get()
        #expect(answer == CapportAnswer(captive: true, userPortalURL: "https://login.portal.test/portal?id=1",
                                        venueInfoURL: "http://venue.portal.test/", canExtendSession: true))
    }

    @Test func notCaptiveWithSessionLimits() throws {
        let answer = try Self.parse(#"{"captive": false, "seconds-remaining": 3600, "bytes-remaining": 1.5e9}"#).get()
        #expect(answer.captive == false)
        #expect(answer.secondsRemaining == 3600)
        #expect(answer.bytesRemaining == 1_500_000_000)
        #expect(answer.userPortalURL == nil)
    }

    static let rejected: [String] = [
        "", "garbage", "<html>login</html>", "[]", "null", "true", "\"captive\"",
        "{}", #"{"user-portal-url": "https://x.example/"}"#,
        #"{"captive": "true"}"#, #"{"captive": 1}"#, #"{"captive": null}"#, #"{"captive": [true]}"#,
        #"{"captive": true"#, #"{"captive": true} trailing"#,
        // Readers that keep the first and readers that keep the last disagree: neither is taken.
        #"{"captive": false, "captive": true}"#, #"{"captive": true, "captive": true}"#,
        #"{"captive": true,}"#,
    ]

    @Test(arguments: rejected)
    func invalidDocumentsAreRejected(_ json: String) {
        guard case .failure = Self.parse(json) else {
            Issue.record("accepted \(json)")
            return
        }
    }

    /// Only `captive` is required; any other key of the wrong type or range is dropped alone.
    @Test func wrongTypesDropOnlyThatKey() throws {
        let answer = try Self.parse("""
            {"captive": true, "user-portal-url": 42, "venue-info-url": ["http://x.example/"],
             "seconds-remaining": "3600", "bytes-remaining": -5, "can-extend-session": "yes"}
            """).get()
        #expect(answer == CapportAnswer(captive: true))
        let more = try Self.parse(#"{"captive": false, "seconds-remaining": 1e300, "bytes-remaining": 12.9}"#).get()
        #expect(more.secondsRemaining == nil)
        #expect(more.bytesRemaining == 12)
    }

    /// RFC 8908: the user portal must be https; a venue page may be http. Nothing else is a link.
    /// (The JSON texts are as sent: `\u001b` is an escape character once decoded.)
    @Test(arguments: [
        ("http://login.portal.test/", nil as String?, "http://login.portal.test/" as String?),
        ("https://login.portal.test/", "https://login.portal.test/", "https://login.portal.test/"),
        ("javascript:alert(1)", nil, nil),
        ("https://", nil, nil),
        ("https://bad host/", nil, nil),
        ("https://x.example/\\u001b[2J", nil, nil),
    ])
    func urlRules(_ json: String, _ portal: String?, _ venue: String?) throws {
        let answer = try Self.parse(#"{"captive": true, "user-portal-url": "\#(json)", "venue-info-url": "\#(json)"}"#).get()
        #expect(answer.userPortalURL == portal)
        #expect(answer.venueInfoURL == venue)
    }

    @Test func oversizedAnswerIsRejected() {
        let padding = String(repeating: " ", count: CapportParser.maxBytes)
        guard case .failure = Self.parse(#"{"captive": false}"# + padding) else {
            Issue.record("accepted an answer over the cap")
            return
        }
    }

    @Test func deeplyNestedGarbageDoesNotCrash() {
        let deep = String(repeating: "[", count: 5_000) + String(repeating: "]", count: 5_000)
        _ = Self.parse(#"{"captive": true, "x": \#(deep)}"#)
        _ = Self.parse(String(repeating: "{\"a\":", count: 3_000))
    }
}

@Suite struct CapportReportTests {
    static let uri = "https://capport.portal.test/api"

    static func observation(status: Int? = 200, contentType: String? = "application/captive+json", body: String = #"{"captive": true}"#,
                            truncated: Bool = false, error: TransportErrorKind? = nil) -> ProbeObservation {
        ProbeObservation(name: CaptivePortalAPI.requestName, url: uri, status: status,
                         headers: contentType.map { [(name: "content-type", value: $0)] } ?? [],
                         body: Array(body.utf8), bodyTruncated: truncated,
                         transportError: error.map { TransportError(kind: $0, code: 60, message: "SSL certificate problem") },
                         timings: ProbeTimings(totalMs: 7))
    }

    static func report(_ observation: ProbeObservation) -> CapportReport {
        CapportReport.from(observation, uri: uri, source: "systemd-networkd", interface: "eth0")
    }

    @Test func answered() {
        let report = Self.report(Self.observation(contentType: "Application/Captive+JSON; charset=utf-8"))
        #expect(report.state == .answered)
        #expect(report.answer?.captive == true)
        #expect(report.error == nil && report.status == 200 && report.durationMs == 7)
        #expect(CapportSignal(report) == .settled(captive: true))
    }

    @Test(arguments: [
        (observation(status: 302), "HTTP status 302, expected 200"),
        (observation(status: nil, error: .tls), "SSL certificate problem"),
        (observation(contentType: "text/html"), "media type text/html, expected application/captive+json"),
        (observation(truncated: true), "answer larger than 16384 bytes"),
        (observation(body: "<html>"), "answer is not JSON: expected a value, found '<' at $ (line 1, column 1)"),
        (observation(body: #"{"captive": false, "captive": true}"#),
         #"answer is not JSON: duplicate key "captive" (each key may appear once in an object) at $.captive (line 1, column 20)"#),
        (observation(body: #"{"captive": "yes"}"#), "\"captive\" is a string, not a boolean"),
    ])
    func failures(_ observation: ProbeObservation, _ error: String) {
        let report = Self.report(observation)
        #expect(report.state == .failed)
        #expect(report.answer == nil)
        #expect(report.error == error)
        // A failed API never makes a portal on its own.
        #expect(CapportSignal(report) == .settled(captive: false))
    }

    @Test func plainJSONMediaTypeAndNoneAreAccepted() {
        #expect(Self.report(Self.observation(contentType: "application/json")).state == .answered)
        #expect(Self.report(Self.observation(contentType: nil)).state == .answered)
    }

    @Test func unrestrictedURNIsNeverAsked() throws {
        let api = CaptivePortalAPI(found: .init(uri: CapportReport.unrestrictedURI, source: "dhcpcd", interface: "wlan0"))
        #expect(api.request(timeout: 5, interface: nil, caBundle: nil) == nil)
        let report = try #require(api.reportWithoutQuery)
        #expect(report.state == .unrestricted)
        #expect(CapportSignal(report) == .absent)
    }

    @Test(arguments: ["http://capport.portal.test/api", "ftp://x.example/", "not a uri", "https://"])
    func nonHTTPSURIsAreNeverAsked(_ uri: String) throws {
        let api = CaptivePortalAPI(found: .init(uri: uri, source: "systemd-networkd", interface: "eth0"))
        #expect(api.request(timeout: 5, interface: nil, caBundle: nil) == nil)
        let report = try #require(api.reportWithoutQuery)
        #expect(report.state == .failed)
        #expect(report.error?.contains("https") == true)
    }

    @Test func requestAsksForCaptiveJSONWithinLimits() throws {
        let api = CaptivePortalAPI(found: .init(uri: Self.uri, source: "option"))
        let request = try #require(api.request(timeout: 3, interface: "eth0", caBundle: "/tmp/ca.pem"))
        #expect(request.url == Self.uri && request.name == "#capport")
        #expect(request.extraHeaders == ["Accept: application/captive+json"])
        #expect(request.maxBodyBytes == CapportParser.maxBytes)
        #expect(request.timeout == 3 && request.interface == "eth0" && request.caBundle == "/tmp/ca.pem")
        #expect(api.reportWithoutQuery == nil)
    }
}
