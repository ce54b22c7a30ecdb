import Foundation
import NetprobeWire
import NetprobeVerdict
import NetprobeOutput
import NetprobeReport
import NetprobeSystem
import NetprobeNetwork
import NetprobeCheck
import NetprobeWatch
import Testing

@Suite struct PortalLocatorTests {
    static let base = "http://captive.apple.com/hotspot-detect.html"

    static let resolved: [(String, String?)] = [
        ("http://portal.example/login?next=1", "http://portal.example/login?next=1"),
        ("https://portal.example:8443/auth", "https://portal.example:8443/auth"),
        ("  http://portal.example/x  ", "http://portal.example/x"),
        ("/login", "http://captive.apple.com/login"),
        ("login.html?a=b", "http://captive.apple.com/login.html?a=b"),
        ("//portal.example/p", "http://portal.example/p"),
        ("javascript:alert(1)", nil),
        ("JavaScript:alert(document.cookie)", nil),
        ("data:text/html,<script>alert(1)</script>", nil),
        ("file:///etc/passwd", nil),
        ("ftp://portal.example/", nil),
        ("", nil),
        // Scheme but no host: nothing a person could open.
        ("http://", nil),
        ("https:", nil),
        ("http:///login", nil),
        ("   ", nil),
    ]

    @Test(arguments: resolved)
    func resolve(_ location: String, _ expected: String?) {
        #expect(PortalLocator.resolve(location, against: Self.base) == expected)
    }

    /// Whatever a portal sends, a resolved URL is absolute http(s) with a host.
    @Test(arguments: ["http:foo", "https:login", "http://portal.example/\u{1B}[2J", "?next=/", "#top", "../../up"])
    func resolvedURLsHaveAHost(_ location: String) throws {
        guard let resolved = PortalLocator.resolve(location, against: Self.base) else { return }
        let components = try #require(URLComponents(string: resolved), "\(resolved)")
        #expect(["http", "https"].contains(components.scheme?.lowercased()))
        #expect(components.host?.isEmpty == false, "\(resolved)")
        #expect(!containsControl(resolved))
    }

    private static func portal(_ name: String, status: Int, location: String?) -> ProbeEvidence {
        let spec = Fixtures.spec(name)
        let observation = Fixtures.observation(spec, status: status, headers: location.map { [("Location", $0)] } ?? [])
        return Classifier.classify(observation, for: spec)
    }

    @Test func firstUsableRedirectWins() throws {
        let evidence = [
            Classifier.classify(Fixtures.expectedAnswer("apple"), for: Fixtures.spec("apple")),
            Self.portal("google", status: 302, location: "javascript:alert(1)"),
            Self.portal("firefox", status: 302, location: "/portal?from=firefox"),
            Self.portal("microsoft", status: 302, location: "http://other.example/"),
        ]
        let info = try #require(PortalLocator.locate(evidence))
        #expect(info == PortalInfo(url: "http://detectportal.firefox.com/portal?from=firefox", source: "redirect", probe: "firefox", status: 302))
    }

    @Test func portalWithoutLocationHasNoURL() throws {
        let info = try #require(PortalLocator.locate([Self.portal("google", status: 511, location: nil),
                                                      Self.portal("apple", status: 200, location: nil)]))
        #expect(info.url == nil)
        #expect(info.source == nil)
        #expect(info.probe == "google")
        #expect(info.status == 511)
    }

    @Test func noPortalEvidenceNoPortal() {
        let evidence = ["apple", "google"].map { Classifier.classify(Fixtures.expectedAnswer($0), for: Fixtures.spec($0)) }
        #expect(PortalLocator.locate(evidence) == nil)
        #expect(PortalLocator.locate([]) == nil)
    }

    /// A Location on a success or failure answer is not portal evidence.
    @Test func locationOnNonPortalEvidenceIsIgnored() {
        let spec = Fixtures.spec("apple")
        let notFound = Classifier.classify(Fixtures.observation(spec, status: 404, headers: [("Location", "http://x.example/")]), for: spec)
        #expect(notFound.outcome == .failure)
        #expect(PortalLocator.locate([notFound]) == nil)
    }
}
