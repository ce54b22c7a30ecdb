@testable import NetprobeWire
@testable import NetprobeVerdict
@testable import NetprobeOutput
@testable import NetprobeReport
@testable import NetprobeSystem
@testable import NetprobeNetwork
@testable import NetprobeCheck
@testable import NetprobeWatch
import VerdictTables
import Testing

/// The verdict engine with DNS-hijack evidence and the Captive Portal API.
@Suite struct PortalVerdictTests {
    typealias F = PortalFixtures
    static let all = ["apple", "google", "firefox", "microsoft", "gnome", "google-https"]

    static func decide(_ evidence: [ProbeEvidence], capport: CapportSignal = .absent, pending: [String] = []) -> Conclusion {
        VerdictEngine.decide(quorum: 2, settled: evidence, pending: pending.map(F.spec), capport: capport)
    }

    /// Every name answered from a private address: the login page on :80, :443 refused.
    @Test func hijackingPortalIsDNSHijack() {
        let evidence = ["apple", "google", "firefox", "microsoft", "gnome"].map {
            F.answer($0, status: 200, body: "<html>Login</html>", address: "10.1.0.1")
        } + [F.answer("google-https", status: nil, address: nil, error: .refused)]
        let decision = Self.decide(evidence)
        #expect(decision.verdict == .portal && decision.reason.rawValue == "dns-hijack")
        #expect(decision.portalOperators == 5)
    }

    /// Without a single HTTP answer, hijacked names alone still show interception.
    @Test func hijackedNamesWithFailedConnectionsArePortalNotOffline() {
        let evidence = Self.all.map { F.answer($0, status: nil, address: "192.168.4.1", error: .timeout) }
        let decision = Self.decide(evidence)
        #expect(decision.verdict == .portal && decision.reason.rawValue == "dns-hijack")
    }

    /// The portal speaking on a probe (511, redirect) is the stronger reason.
    @Test func redirectOutranksHijack() {
        let evidence = [F.answer("apple", status: 302, headers: [("Location", "/x")], address: "10.1.0.1"),
                        F.answer("google", status: 200, body: "login", address: "10.1.0.1")]
        #expect(Self.decide(evidence).reason.rawValue == "http-redirect")
    }

    /// Documentation ranges (the lab's real hosts), IP literals and correct answers never count as hijack.
    @Test func noHijackWithoutInterceptionAddresses() {
        let lab = Self.all.map { F.answer($0, status: 200, body: "<html>Login</html>", address: "203.0.113.100") }
        #expect(Self.decide(lab).reason.rawValue == "wrong-content")
        let correctFromPrivate = Self.all.map { F.correct($0, address: "10.0.0.5") }
        #expect(correctFromPrivate.allSatisfy { Classifier.dnsHijack($0) == false })
        #expect(Self.decide(correctFromPrivate).verdict == .online)
        let literal = ProbeSpec(name: "local", url: "http://127.0.0.1:8080/x", operatorName: "me", expect: Expectation(statuses: [204]))
        let observation = ProbeObservation(name: "local", url: literal.url, status: 200, body: Array("x".utf8), remoteAddress: "127.0.0.1")
        #expect(Classifier.dnsHijack(Classifier.classify(observation, for: literal)) == false)
        let localhost = ProbeSpec(name: "lh", url: "http://localhost:8080/x", operatorName: "me", expect: Expectation(statuses: [204]))
        #expect(Classifier.dnsHijack(Classifier.classify(observation, for: localhost)) == false)
        let v6 = ProbeSpec(name: "v6", url: "http://[::1]:8080/x", operatorName: "me", expect: Expectation(statuses: [204]))
        var v6Observation = observation
        v6Observation.remoteAddress = "::1"
        #expect(Classifier.dnsHijack(Classifier.classify(v6Observation, for: v6)) == false)
        let named = ProbeSpec(name: "n", url: "http://probe.example/x", operatorName: "me", expect: Expectation(statuses: [204]))
        #expect(Classifier.dnsHijack(Classifier.classify(v6Observation, for: named)) == true)
    }

    /// Portals that allow-list captive.apple.com while hijacking the rest: still a portal.
    @Test func allowListedProbeWithHijackedRest() {
        let evidence = [F.correct("apple")] + ["google", "firefox", "microsoft", "gnome"].map {
            F.answer($0, status: 200, body: "<html>Login</html>", address: "10.1.0.1")
        }
        let decision = Self.decide(evidence)
        #expect(decision.verdict == .portal && decision.reason.rawValue == "dns-hijack")
    }

    /// One operator's name in a private range (split-horizon DNS) cannot break a quorum of successes.
    @Test func oneHijackedOperatorDoesNotOverrideTheQuorum() {
        let evidence = ["apple", "google", "firefox"].map { F.correct($0) }
            + [F.answer("microsoft", status: nil, address: "10.0.0.9", error: .refused)]
        #expect(Self.decide(evidence).verdict == .online)
    }

    @Test func captiveAPIIsAuthoritative() {
        let online = Self.all.map { F.correct($0) }
        let decision = Self.decide(online, capport: .settled(captive: true))
        #expect(decision.verdict == .portal && decision.reason.rawValue == "capport-captive" && decision.isFinal)
        let offline = Self.all.map { F.answer($0, status: nil, address: nil, error: .timeout) }
        #expect(Self.decide(offline, capport: .settled(captive: true)).reason.rawValue == "capport-captive")
        let loginPage = Self.all.map { F.answer($0, status: 200, body: "<html>Login</html>") }
        #expect(Self.decide(loginPage, capport: .settled(captive: true)).reason.rawValue == "capport-captive")
        let hijacked = Self.all.map { F.answer($0, status: 200, body: "<html>Login</html>", address: "10.0.0.1") }
        #expect(Self.decide(hijacked, capport: .settled(captive: true)).reason.rawValue == "capport-captive")
    }

    @Test func httpReasonsOutrankTheCaptiveAPI() {
        let redirected = Self.all.map { F.answer($0, status: 302, headers: [("Location", "http://login.portal.test/")]) }
        #expect(Self.decide(redirected, capport: .settled(captive: true)).reason.rawValue == "http-redirect")
        let auth = Self.all.map { F.answer($0, status: 511, body: "auth") }
        #expect(Self.decide(auth, capport: .settled(captive: true)).reason.rawValue == "http-511")
    }

    @Test func notCaptiveNeverOverridesTheProbes() {
        let offline = Self.all.map { F.answer($0, status: nil, address: nil, error: .refused) }
        let decision = Self.decide(offline, capport: .settled(captive: false))
        #expect(decision.verdict == .offline && decision.reason.rawValue == "connect-failed")
        let portal = Self.all.map { F.answer($0, status: 511, body: "auth") }
        #expect(Self.decide(portal, capport: .settled(captive: false)).verdict == .portal)
        #expect(Self.decide(Self.all.map { F.correct($0) }, capport: .settled(captive: false)).verdict == .online)
    }

    /// While the API has not answered, nothing is final: its answer and the session limits
    /// must make it into the report. Once it has, the probes decide finality as before.
    @Test func pendingAPIKeepsTheVerdictOpen() {
        let five = ["apple", "google", "firefox", "microsoft", "gnome"].map { F.correct($0) }
        #expect(Self.decide(five, capport: .absent, pending: ["google-https"]).isFinal)
        #expect(Self.decide(five, capport: .pending, pending: ["google-https"]).isFinal == false)
        #expect(Self.decide(five, capport: .settled(captive: false), pending: ["google-https"]).isFinal)
        #expect(Self.decide(five + [F.correct("google-https")], capport: .pending).isFinal == false)
        #expect(Self.decide(five, capport: .settled(captive: true), pending: ["google-https"]).isFinal)
    }

    @Test func oldSignatureBehavesAsBefore() {
        let evidence = Self.all.map { F.correct($0) }
        #expect(VerdictEngine.decide(quorum: 2, settled: evidence, pending: [])
                == VerdictEngine.decide(quorum: 2, settled: evidence, pending: [], capport: .absent))
    }
}
