import NetprobeWire
import NetprobeVerdict
import NetprobeOutput
import NetprobeReport
import NetprobeSystem
import NetprobeNetwork
import NetprobeCheck
import NetprobeWatch
import Testing

/// How answers that came through a proxy become evidence: the proxy's own failures and its
/// 407 are distinct failures; a proxy speaking as a portal is a portal like any other.
@Suite struct ProxyClassifierTests {
    static let proxy = "http://proxy.example:3128"

    private func observe(_ name: String, status: Int? = nil, headers: [(String, String)] = [], body: String = "",
                         error: TransportErrorKind? = nil, cause: TransportErrorKind? = nil,
                         connect: Int? = nil, via proxy: String? = proxy) -> ProbeEvidence {
        let spec = Fixtures.spec(name)
        var observation = Fixtures.observation(spec, status: status, body: body, headers: headers, error: error)
        observation.transportError?.cause = cause
        observation.proxy = proxy
        observation.proxyConnectStatus = connect
        return Classifier.classify(observation, for: spec)
    }

    @Test func proxyAnswering407ToAGetWantsCredentials() {
        let evidence = observe("apple", status: 407, headers: [("Proxy-Authenticate", "Basic realm=\"lab\"")])
        #expect(evidence.outcome == .failure)
        #expect(evidence.errorClass == .proxyAuthRequired)
    }

    @Test func proxyAnswering407ToConnectWantsCredentials() {
        let evidence = observe("google-https", error: .proxy, connect: 407)
        #expect(evidence.outcome == .failure)
        #expect(evidence.errorClass == .proxyAuthRequired)
    }

    @Test func a407WithoutAProxyIsJustA4xx() {
        let evidence = observe("apple", status: 407, via: nil)
        #expect(evidence.outcome == .failure)
        #expect(evidence.errorClass == .http4xx)
    }

    @Test(arguments: [TransportErrorKind.dns, .refused, .unreachable, .timeout, .reset, .tls, .proto])
    func proxyThatCannotBeUsedIsAProxyFailure(_ cause: TransportErrorKind) {
        let evidence = observe("apple", error: .proxy, cause: cause)
        #expect(evidence.outcome == .failure)
        #expect(evidence.errorClass == .proxyFailed)
    }

    @Test func connectRefusedIsAProxyFailure() {
        let evidence = observe("google-https", error: .proxy, connect: 403)
        #expect(evidence.outcome == .failure)
        #expect(evidence.errorClass == .proxyFailed)
    }

    @Test func proxyRedirectingAGetIsAPortal() {
        let evidence = observe("apple", status: 302, headers: [("Location", "http://login.portal.test/login")])
        #expect(evidence.outcome == .portal)
        #expect(evidence.errorClass == .redirect)
    }

    @Test func connectAnsweredWithARedirectOr511IsAPortal() {
        #expect(observe("google-https", headers: [("Location", "http://login.portal.test/")], error: .proxy, connect: 302).outcome == .portal)
        let evidence = observe("google-https", error: .proxy, connect: 511)
        #expect(evidence.outcome == .portal)
        #expect(evidence.errorClass == .authRequired)
    }

    @Test func correctAnswerThroughTheProxyIsSuccess() {
        let spec = Fixtures.spec("google")
        var observation = Fixtures.expectedAnswer("google")
        observation.proxy = Self.proxy
        observation.remoteAddress = nil
        #expect(Classifier.classify(observation, for: spec).outcome == .success)
    }

    @Test func farSideFailureThroughTheProxyKeepsItsClass() {
        let evidence = observe("google-https", error: .tls, connect: 200)
        #expect(evidence.errorClass == .tls)
    }
}
