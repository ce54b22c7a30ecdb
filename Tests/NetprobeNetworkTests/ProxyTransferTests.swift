import Foundation
import NetprobeWire
import NetprobeVerdict
import NetprobeOutput
import NetprobeReport
import NetprobeSystem
import NetprobeNetwork
import NetprobeCheck
import NetprobeWatch
import XCTest

/// Probes through an explicit proxy (lab/servers/forward_proxy.py on 127.0.0.1) to the
/// loopback test server: what is observed, how the proxy's own answers are classified,
/// and that credentials are used but never observed.
final class ProxyTransferTests: ServerTestCase {
    private func proxied(_ path: String, via proxy: String, scheme: String = "http", timeout: Double = 5) throws -> ProbeRequest {
        ProbeRequest(name: path, url: try server.url(path, scheme: scheme), timeout: timeout,
                     proxy: try ProxyURL(parsing: proxy))
    }

    private func runOne(_ request: ProbeRequest) throws -> ProbeObservation {
        try XCTUnwrap(run([request]).results.first)
    }

    /// The evidence the rest of netprobe would draw (a 204 is the expected answer).
    private func classify(_ observation: ProbeObservation) -> ProbeEvidence {
        let spec = ProbeSpec(name: observation.name, url: observation.url, operatorName: "test",
                             expect: NetprobeWire.Expectation(statuses: [204]))
        return Classifier.classify(observation, for: spec)
    }

    func testDirectRequestRecordsNoProxy() throws {
        let result = try runOne("/generate_204")
        XCTAssertEqual(result.status, 204)
        XCTAssertNil(result.proxy)
        XCTAssertNil(result.proxyAddress)
        XCTAssertNil(result.proxyConnectStatus)
        XCTAssertEqual(result.remoteAddress, "127.0.0.1")
    }

    func testGetThroughTheProxy() throws {
        let proxy = try ForwardProxy()
        let result = try runOne(try proxied("/generate_204", via: proxy.url))
        XCTAssertNil(result.transportError)
        XCTAssertEqual(result.status, 204)
        XCTAssertEqual(result.proxy, proxy.url)
        XCTAssertEqual(result.proxyAddress, "127.0.0.1")
        XCTAssertNil(result.remoteAddress, "through a proxy, where the name led is unknown")
        XCTAssertNil(result.proxyConnectStatus, "an http URL is an absolute-URI GET, no CONNECT")
        XCTAssertTrue(proxy.log.contains("GET http://127.0.0.1:\(try server.port)/generate_204"), proxy.log)
        XCTAssertEqual(classify(result).outcome, .success)
    }

    func testCredentialsAreUsedAndNeverObserved() throws {
        let proxy = try ForwardProxy(mode: .credentials)
        let withCredentials = "http://user:secret@127.0.0.1:\(proxy.port)"
        let (results, _, _) = try run([try proxied("/generate_204", via: withCredentials),
                                       try proxied("/echo", via: withCredentials)])
        XCTAssertEqual(results.map(\.status), [204, 200])
        for result in results {
            XCTAssertNil(result.transportError)
            XCTAssertEqual(result.proxy, proxy.url, "redacted")
            XCTAssertFalse(result.proxyAuthRequired)
            let everything = [result.proxy ?? "", result.bodyText, result.transportError?.message ?? "",
                              result.proxyAuthRealm ?? ""] + result.headers.map { "\($0.name): \($0.value)" }
            for text in everything {
                XCTAssertFalse(text.contains("secret"), text)
                XCTAssertFalse(text.contains("dXNlcjpzZWNyZXQ"), text)  // base64 of user:secret
            }
        }
        XCTAssertTrue(proxy.log.contains("/generate_204 (credentials)"), proxy.log)
        XCTAssertFalse(proxy.log.contains("secret"))
    }

    func testMissingCredentialsAre407WithTheRealm() throws {
        let proxy = try ForwardProxy(mode: .credentials)
        let result = try runOne(try proxied("/generate_204", via: proxy.url))
        XCTAssertNil(result.transportError)
        XCTAssertEqual(result.status, 407)
        XCTAssertTrue(result.proxyAuthRequired)
        XCTAssertEqual(result.proxyAuthRealm, "lab")
        let evidence = classify(result)
        XCTAssertEqual(evidence.outcome, .failure)
        XCTAssertEqual(evidence.errorClass, .proxyAuthRequired)
    }

    func testConnectAnswered407IsAProxyAuthFailure() throws {
        let proxy = try ForwardProxy(mode: .auth)
        let result = try runOne(try proxied("/generate_204", via: proxy.url, scheme: "https"))
        let error = try XCTUnwrap(result.transportError)
        XCTAssertEqual(error.kind, .proxy)
        XCTAssertNil(error.cause, "the proxy answered; it refused to relay")
        XCTAssertEqual(error.code, 56, "CURLE_RECV_ERROR: CONNECT tunnel failed")
        XCTAssertEqual(result.proxyConnectStatus, 407)
        XCTAssertNil(result.status)
        XCTAssertEqual(result.proxyAuthRealm, "lab")
        XCTAssertEqual(classify(result).errorClass, .proxyAuthRequired)
    }

    func testProxyDownIsAProxyFailureAtOnce() throws {
        let closed = try ClosedPort()
        let (results, _, elapsed) = try run([try proxied("/generate_204", via: "http://127.0.0.1:\(closed.port)"),
                                             try proxied("/generate_204", via: "http://127.0.0.1:\(closed.port)", scheme: "https")],
                                            deadlineIn: 10)
        for result in results {
            let error = try XCTUnwrap(result.transportError)
            XCTAssertEqual(error.kind, .proxy)
            XCTAssertEqual(error.cause, .refused)
            XCTAssertTrue(error.message.hasPrefix("proxy http://127.0.0.1:\(closed.port): "), error.message)
            XCTAssertEqual(result.proxy, "http://127.0.0.1:\(closed.port)")
            XCTAssertEqual(classify(result).errorClass, .proxyFailed)
        }
        XCTAssertLessThan(elapsed, 2, "a refused connection needs no timeout")
    }

    func testProxyDroppingTheConnectionIsAProxyFailure() throws {
        // The test server's /reset path resets every connection: here it plays a proxy that drops us.
        let dropper = "http://127.0.0.1:\(try server.port)"
        var request = try proxied("/generate_204", via: dropper)
        request.url = "http://127.0.0.1:1/reset"
        let result = try runOne(request)
        XCTAssertEqual(result.transportError?.kind, .proxy)
        XCTAssertEqual(result.transportError?.cause, .reset)
    }

    func testGuestNetworkProxyRedirectsGetsAndRefusesConnect() throws {
        let proxy = try ForwardProxy(mode: .portal)
        let (results, _, _) = try run([try proxied("/generate_204", via: proxy.url),
                                       try proxied("/generate_204", via: proxy.url, scheme: "https")])
        let get = results[0], connect = results[1]
        XCTAssertEqual(get.status, 302)
        XCTAssertEqual(get.header("location"), ForwardProxy.loginURL)
        XCTAssertEqual(classify(get).outcome, .portal)
        XCTAssertEqual(classify(get).errorClass, .redirect)
        XCTAssertEqual(connect.proxyConnectStatus, 403)
        XCTAssertEqual(connect.transportError?.kind, .proxy)
        XCTAssertEqual(classify(connect).outcome, .failure)
        XCTAssertEqual(classify(connect).errorClass, .proxyFailed)
    }

    func testExplicitProxyIsNotBypassedByNoProxyInTheEnvironment() throws {
        // libcurl would still honour NO_PROXY for an explicit proxy; the choice was already made.
        let closed = try ClosedPort()
        setenv("NO_PROXY", "*", 1)
        setenv("no_proxy", "*", 1)
        defer {
            unsetenv("NO_PROXY")
            unsetenv("no_proxy")
        }
        let result = try runOne(try proxied("/generate_204", via: "http://127.0.0.1:\(closed.port)"))
        XCTAssertNil(result.status, "went direct despite the proxy")
        XCTAssertEqual(result.transportError?.kind, .proxy)
    }

    func testSelectionFromTheEnvironmentDrivesTheTransfer() throws {
        let proxy = try ForwardProxy()
        let settings = ProxySettings(environment: ["http_proxy": proxy.url, "NO_PROXY": "localhost"])
        let url = try server.url("/generate_204")
        let request = ProbeRequest(name: "env", url: url, timeout: 5, proxy: try settings.proxy(for: url))
        let result = try runOne(request)
        XCTAssertEqual(result.status, 204)
        XCTAssertEqual(result.proxy, proxy.url)
    }
}
