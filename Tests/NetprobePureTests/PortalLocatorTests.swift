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

    /// No Location, no page to read: the page to open is the intercepted probe's own URL (the
    /// empty 200 is a broken box's failure, not a page the portal showed).
    @Test func portalWithoutLocationOffersTheInterceptedProbePage() throws {
        let info = try #require(PortalLocator.locate([Self.portal("google", status: 511, location: nil),
                                                      Self.portal("apple", status: 200, location: nil)]))
        #expect(info.url == "http://connectivitycheck.gstatic.com/generate_204")
        #expect(info.source == "probe")
        #expect(info.probe == "google")
        #expect(info.status == 511)
    }

    /// A 302 without Location, and login forms served in place of the probe pages: the smallest
    /// intercepted plain-HTTP URL, whatever order the answers landed in; an intercepted HTTPS
    /// probe (a proxy's CONNECT redirect) is not offered while a plain-HTTP one is.
    @Test func theProbePageDoesNotDependOnArrivalOrder() throws {
        let form = "<html><body><form method=\"post\"><input name=\"room\"><button>Connect</button></form></body></html>"
        func page(_ name: String) -> ProbeEvidence {
            let spec = Fixtures.spec(name)
            return Classifier.classify(Fixtures.observation(spec, status: 200, body: form), for: spec)
        }
        let evidence = [Self.portal("microsoft", status: 302, location: nil), page("gnome"), page("firefox"),
                        Self.portal("google-https", status: 302, location: nil)]
        #expect(evidence.allSatisfy { $0.outcome == .portal })
        for order in [evidence, evidence.reversed()] {
            let info = try #require(PortalLocator.locate(order))
            #expect(info.url == "http://detectportal.firefox.com/success.txt")
            #expect(info.source == "probe")
            #expect(info.probe == "firefox")
        }
    }

    /// A URL the network gave, even a weak hint, wins over the probe's own page.
    @Test func aURLTheNetworkGaveWins() throws {
        let capport = CapportReport(uri: "http://status.client/", source: "systemd-networkd", state: .failed)
        let info = try #require(PortalLocator.locate([Self.portal("google", status: 302, location: nil)], capport: capport))
        #expect(info.url == "http://status.client/")
        #expect(info.source == "announced")
    }

    /// The Captive Portal API alone says captive and names no page: a plain-HTTP probe that was sent.
    @Test func anAPIPortalWithoutAPageOffersAPlainProbe() throws {
        let capport = CapportReport(uri: "https://capport.invalid/", source: "option", state: .answered,
                                    answer: CapportAnswer(captive: true))
        let evidence = ["google-https", "microsoft", "apple"].map { Classifier.classify(Fixtures.expectedAnswer($0), for: Fixtures.spec($0)) }
        let info = try #require(PortalLocator.locate(evidence, capport: capport))
        #expect(info.url == "http://captive.apple.com/hotspot-detect.html")
        #expect(info.source == "probe")
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
