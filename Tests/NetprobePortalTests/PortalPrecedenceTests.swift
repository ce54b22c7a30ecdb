@testable import NetprobeWire
@testable import NetprobeVerdict
@testable import NetprobeOutput
@testable import NetprobeReport
@testable import NetprobeSystem
@testable import NetprobeNetwork
@testable import NetprobeCheck
@testable import NetprobeWatch
import Testing

/// capport user-portal-url > WISPr LoginURL > redirect Location > meta refresh > script > dns.
@Suite struct PortalPrecedenceTests {
    typealias F = PortalFixtures

    static let redirect = F.answer("apple", status: 302, headers: [("Location", "http://login.portal.test/redirect")])
    static let wispr = F.answer("firefox", status: 200, body: F.wisprPage)
    static let meta = F.answer("microsoft", status: 200, body: #"<meta http-equiv="refresh" content="0; url=/meta-login">"#)
    static let script = F.answer("gnome", status: 200, body: #"<script>window.location.href = "/js-login";</script>"#)

    @Test func capportUserPortalURLWinsWhenCaptive() throws {
        let info = try #require(PortalLocator.locate([Self.redirect, Self.wispr],
                                                     capport: F.capport(captive: true, portal: "https://login.portal.test/api-portal")))
        #expect(info.url == "https://login.portal.test/api-portal")
        #expect(info.source == "capport")
        #expect(info.probe == nil && info.status == nil)
        // The page's WISPr details are still reported.
        #expect(info.locationName == "Lab Cafe")
        #expect(info.loginURL == "http://detectportal.firefox.com/wispr/login?x=1&y=2")
    }

    @Test func wisprBeatsRedirectAndIsResolvedAgainstTheProbeURL() throws {
        let info = try #require(PortalLocator.locate([Self.redirect, Self.wispr], capport: F.capport(captive: false)))
        #expect(info.url == "http://detectportal.firefox.com/wispr/login?x=1&y=2")
        #expect(info.source == "wispr")
        #expect(info.probe == "firefox" && info.status == 200)
        #expect(info.wispr?.messageType == 100 && info.wispr?.responseCode == 0)
        #expect(info.wispr?.loginURL == "/wispr/login?x=1&y=2")
    }

    @Test func redirectBeatsMetaRefreshAndScript() throws {
        let info = try #require(PortalLocator.locate([Self.script, Self.meta, Self.redirect]))
        #expect(info.url == "http://login.portal.test/redirect")
        #expect(info.source == "redirect" && info.probe == "apple" && info.status == 302)
        #expect(info.wispr == nil && info.loginURL == nil && info.locationName == nil)
    }

    @Test func metaRefreshBeatsScript() throws {
        let info = try #require(PortalLocator.locate([Self.script, Self.meta]))
        #expect(info.url == "http://www.msftconnecttest.com/meta-login")
        #expect(info.source == "meta-refresh" && info.probe == "microsoft")
    }

    @Test func scriptRedirectIsTheBodySource() throws {
        let info = try #require(PortalLocator.locate([Self.script]))
        #expect(info.url == "http://nmcheck.gnome.org/js-login")
        #expect(info.source == "body")
    }

    @Test func hijackedNameGivesTheInterceptionAddress() throws {
        let page = F.answer("apple", status: 200, body: "<html>Welcome</html>", address: "10.9.0.1")
        let info = try #require(PortalLocator.locate([page]))
        #expect(info.url == "http://10.9.0.1/")
        #expect(info.source == "dns" && info.probe == "apple")
        let v6 = F.answer("apple", status: 200, body: "<html>Welcome</html>", address: "fd00::1")
        #expect(PortalLocator.locate([v6])?.url == "http://[fd00::1]/")
    }

    /// A hijacked HTTPS name whose address answers no HTTP: the probe's URL in its http:// form,
    /// which resolves to the portal too and where it can show its page.
    @Test func hijackedHTTPSNameWithoutHTTPAnswerOffersItsPlainForm() throws {
        let refused = F.answer("google-https", status: nil, address: "10.9.0.1", error: .tls)
        let info = try #require(PortalLocator.locate([refused]))
        #expect(info.url == "http://www.google.com/generate_204" && info.source == "probe")
        #expect(info.probe == "google-https")
    }

    @Test func capportNotCaptiveURLIsOnlyTheLastResort() throws {
        let notCaptive = F.capport(captive: false, portal: "https://login.portal.test/extend")
        #expect(PortalLocator.locate([F.correct("apple")], capport: notCaptive) == nil)
        let plain = F.answer("apple", status: 200, body: "<html>Welcome</html>")
        let info = try #require(PortalLocator.locate([plain], capport: notCaptive))
        #expect(info.url == "https://login.portal.test/extend" && info.source == "capport")
        #expect(PortalLocator.locate([Self.meta], capport: notCaptive)?.source == "meta-refresh")
    }

    @Test func captiveAPIAloneIsAPortal() throws {
        let info = try #require(PortalLocator.locate([F.correct("apple"), F.correct("google")],
                                                     capport: F.capport(captive: true, portal: "https://login.portal.test/")))
        #expect(info.url == "https://login.portal.test/" && info.source == "capport")
        // The API names no page: a plain-HTTP probe that was sent, which such a portal intercepts.
        let noURL = try #require(PortalLocator.locate([F.correct("apple")], capport: F.capport(captive: true)))
        #expect(noURL.url == "http://captive.apple.com/hotspot-detect.html" && noURL.source == "probe" && noURL.probe == "apple")
        let nothingSent = try #require(PortalLocator.locate([], capport: F.capport(captive: true)))
        #expect(nothingSent.url == nil && nothingSent.probe == nil)
    }

    /// Unusable links at a stronger source fall through to the next one.
    @Test func unusableLinksFallThrough() throws {
        let badWISPr = F.answer("firefox", status: 200, body: """
            <WISPAccessGatewayParam><LoginURL>javascript:alert(1)</LoginURL><LocationName>X</LocationName></WISPAccessGatewayParam>
            """)
        let badRedirect = F.answer("apple", status: 302, headers: [("Location", "data:text/html,hi")])
        let info = try #require(PortalLocator.locate([badWISPr, badRedirect, Self.meta]))
        #expect(info.source == "meta-refresh")
        #expect(info.locationName == "X" && info.loginURL == nil)
    }

    /// An http:// URI announced as the Captive Portal URI (RFC 7710's older meaning, openNDS's
    /// http://status.client) is never asked, but it is offered when the probes show a portal
    /// and give no URL of their own; it never makes a portal by itself, nor beats a real URL.
    @Test func anAnnouncedHTTPURIIsOfferedOnlyWhenNothingBetterIsKnown() throws {
        let announced = CapportReport(uri: "http://status.client", source: "dhclient", state: .failed,
                                      error: "not queried: not an https URL")
        let silentPortal = F.answer("apple", status: 200, body: "<html>Welcome</html>")
        let info = try #require(PortalLocator.locate([silentPortal], capport: announced))
        #expect(info.url == "http://status.client" && info.source == "announced" && info.probe == "apple")
        #expect(PortalLocator.locate([Self.redirect], capport: announced)?.source == "redirect")
        #expect(PortalLocator.locate([F.correct("google")], capport: announced) == nil)
        let https = CapportReport(uri: "https://capport.portal.test/api", source: "dhclient", state: .failed, error: "timeout")
        // An https API that did not answer names nothing: the intercepted probe's own page.
        #expect(PortalLocator.locate([silentPortal], capport: https)?.url == "http://captive.apple.com/hotspot-detect.html")
        #expect(PortalLocator.locate([silentPortal], capport: https)?.source == "probe")
    }
}
