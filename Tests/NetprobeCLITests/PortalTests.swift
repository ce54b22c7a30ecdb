import Foundation
import Testing

/// Loopback checks that end "portal": probes whose answers are known were
/// redirected, answered 511, or answered with another page.
@Suite(.timeLimit(.minutes(2)))
struct PortalTests {
    /// probe_server.py's default portal Location.
    static let portalURL = "http://portal.example/login?x=1"

    /// Runs a probe set through netprobe --json and checks what every portal report must show.
    static func runPortal(_ set: ProbeSet, reason: String) throws -> (Run, JSONReport) {
        let sandbox = try Sandbox()
        let config = try sandbox.write(set)
        let run = try sandbox.run(["--json", "--config", config], servers: [ProbeSet.httpServer])
        #expect(run.status == 2, "\(run)")
        let report = try run.report()
        #expect(report.verdict == "portal", "\(run)")
        #expect(report.reason == reason, "\(run)")
        #expect(report.portal != nil, "\(run)")
        #expect((report.quorum?["portal"] as? Int ?? 0) >= 1, "\(run)")
        return (run, report)
    }

    @Test func redirectEverywhereIsAPortalWithItsLoginURL() throws {
        let (run, report) = try Self.runPortal(.all("/redirect"), reason: "http-redirect")
        #expect(report.portalURL == Self.portalURL, "\(run)")
        // The Location, or the WISPr LoginURL probe_server.py puts in the same answer.
        #expect(["redirect", "wispr"].contains(report.portal?["source"] as? String ?? "?"), "\(run)")
        #expect(report.portal?["status"] as? Int == 302, "\(run)")
        let names = Set(report.probes.compactMap(\.name))
        #expect(names.contains(report.portal?["probe"] as? String ?? "?"), "\(run)")
        for probe in report.probes where probe.outcome != "skipped" {
            #expect(probe.outcome == "portal", "\(probe)")
            #expect(probe.errorClass == "redirect", "\(probe)")
            #expect(probe.status == 302, "\(probe)")
            #expect(probe.location == Self.portalURL, "\(probe)")
        }
    }

    /// The portal URL is the Location the portal really sent, whatever it is.
    @Test func portalURLIsTheLocationSent() throws {
        let login = "http://198.51.100.1:8002/login?ref=probe&lang=en"
        let encoded = login.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? login
        let (run, report) = try Self.runPortal(.all("/redirect?location=\(encoded)"), reason: "http-redirect")
        #expect(report.portalURL == login, "\(run)")
    }

    @Test func relativeLocationIsResolvedAgainstTheProbeURL() throws {
        let (run, report) = try Self.runPortal(.all("/redirect-relative"), reason: "http-redirect")
        #expect(report.portalURL == ProbeSet.url("/login"), "\(run)")
        for probe in report.probes where probe.outcome != "skipped" {
            #expect(probe.location == "/login", "\(probe)")
        }
    }

    @Test func networkAuthenticationRequiredIs511() throws {
        let (run, report) = try Self.runPortal(.all("/511"), reason: "http-511")
        for probe in report.probes where probe.outcome != "skipped" {
            #expect(probe.outcome == "portal", "\(probe)")
            #expect(probe.errorClass == "auth-required", "\(probe)")
            #expect(probe.status == 511, "\(probe)")
        }
        #expect(report.portal?["status"] as? Int == 511, "\(run)")
    }

    /// A login page (200 with HTML) where the real endpoint answers 204 or a known text.
    @Test func loginPageInsteadOfTheKnownAnswerIsWrongContent() throws {
        let (_, report) = try Self.runPortal(.all("/login-page"), reason: "wrong-content")
        for probe in report.probes where probe.outcome != "skipped" {
            #expect(probe.outcome == "portal", "\(probe)")
            #expect(probe.errorClass == "wrong-content", "\(probe)")
            #expect(probe.status == 200, "\(probe)")
            #expect(probe.bodyMatched != true, "\(probe)")
        }
    }

    /// Portals allow-list famous probe hosts: one probe answering right does not
    /// outweigh the others being intercepted.
    @Test func allowListedProbeDoesNotHideThePortal() throws {
        var set = ProbeSet(quorum: 2)
        set.add("apple", expecting: .apple)
        set.add("google", expecting: .google, path: "/redirect")
        set.add("firefox", expecting: .firefox, path: "/redirect")
        let (run, report) = try Self.runPortal(set, reason: "http-redirect")
        #expect(report.portalURL == Self.portalURL, "\(run)")
        let apple = try #require(report.probe("apple"), "\(run)")
        #expect(apple.outcome == "success" || apple.skipReason == "decided", "\(apple)")
    }

    /// Even when a quorum of allow-listed hosts answers right, a quorum of intercepted
    /// independent endpoints means a portal: the famous check hosts (which such portals let
    /// through) answer correctly, every other operator is intercepted. Every time: the first
    /// wave never rests on the famous hosts alone.
    @Test func quorumOfInterceptedEndpointsOutweighsAllowListedSuccesses() throws {
        var set = ProbeSet(quorum: 2)
        set.add("apple", expecting: .apple, url: ProbeSet.url(Endpoint.apple.path, host: "captive.apple.com"))
        set.add("gstatic", expecting: .google, url: ProbeSet.url(Endpoint.google.path, host: "connectivitycheck.gstatic.com"))
        set.add("gnome", expecting: .gnome, path: "/511")
        set.add("firefox", expecting: .firefox, path: "/511")
        set.add("microsoft", expecting: .microsoft, path: "/511")
        let hosts = ["captive.apple.com", "connectivitycheck.gstatic.com"]
        for _ in 0..<5 {
            let sandbox = try Sandbox()
            let config = try sandbox.write(set)
            let run = try sandbox.run(["--json", "--config", config], servers: [ProbeSet.httpServer], hosts: hosts)
            #expect(run.status == 2, "\(run)")
            let report = try run.report()
            #expect(report.verdict == "portal", "\(run)")
            #expect(report.reason == "http-511", "\(run)")
            #expect((report.quorum?["portal"] as? Int ?? 0) >= 2, "\(run)")
        }
    }

    /// A portal that lets one probe through and hands the others a login page.
    @Test func mixedPortalAnswersStillPortal() throws {
        var set = ProbeSet(quorum: 2)
        set.add("google", expecting: .google)
        set.add("firefox", expecting: .firefox, path: "/login-page")
        set.add("microsoft", expecting: .microsoft, path: "/wrong")
        let (run, report) = try Self.runPortal(set, reason: "wrong-content")
        #expect(report.probe("firefox")?.errorClass ?? "wrong-content" == "wrong-content", "\(run)")
    }
}
