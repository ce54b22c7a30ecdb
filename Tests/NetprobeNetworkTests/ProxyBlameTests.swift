@testable import NetprobeWire
@testable import NetprobeVerdict
@testable import NetprobeOutput
@testable import NetprobeReport
@testable import NetprobeSystem
@testable import NetprobeNetwork
@testable import NetprobeCheck
@testable import NetprobeWatch
import XCTest

#if canImport(Glibc)
import Glibc
#endif

/// Who failed a proxied transfer, the proxy or the far side: the table behind
/// `TransportErrorKind.proxy`. Codes are libcurl's stable CURLcode numbers.
final class ProxyBlameTests: XCTestCase {
    private func blame(_ code: UInt32, errno: Int32 = 0, connected: Bool = true, https: Bool = false,
                       connect: Int = 0, status: Int = 0, tlsProxy: Bool = false) -> CurlErrorClassifier.Blame {
        let kind = CurlErrorClassifier.kind(code: code, osErrno: errno, connected: connected)
        return CurlErrorClassifier.blame(.init(code: code, kind: kind, osErrno: errno, connected: connected, tunnelling: https,
                                               connectStatus: connect, status: status, proxyIsTLS: tlsProxy))
    }

    func testReachingTheProxy() {
        XCTAssertEqual(blame(5, connected: false), .proxy(cause: .dns))  // COULDNT_RESOLVE_PROXY
        XCTAssertEqual(blame(7, errno: ECONNREFUSED, connected: false), .proxy(cause: .refused))
        XCTAssertEqual(blame(7, errno: ENETUNREACH, connected: false), .proxy(cause: .unreachable))
        XCTAssertEqual(blame(28, connected: false), .proxy(cause: .timeout))
        XCTAssertEqual(blame(97), .proxy(cause: nil))  // CURLE_PROXY: SOCKS handshake
    }

    func testProxyRefusingOrDropping() {
        XCTAssertEqual(blame(56, https: true, connect: 403), .proxy(cause: nil))
        XCTAssertEqual(blame(56, https: true, connect: 407), .proxy(cause: nil))
        XCTAssertEqual(blame(56, https: true, connect: 502), .proxy(cause: nil))
        XCTAssertEqual(blame(52, errno: ECONNRESET), .proxy(cause: .reset))  // nothing at all for a GET
        XCTAssertEqual(blame(56, errno: ECONNRESET, https: true), .proxy(cause: .reset))  // dropped during CONNECT
        XCTAssertEqual(blame(8, https: true), .proxy(cause: .proto))  // garbage for a CONNECT answer
        XCTAssertEqual(blame(35, tlsProxy: true), .proxy(cause: .tls))  // https:// proxy handshake
    }

    func testFarSideFailuresThroughTheProxy() {
        XCTAssertEqual(blame(28), .farSide)  // connected; the answer was slow
        XCTAssertEqual(blame(60, https: true, connect: 200), .farSide)  // far side's certificate
        XCTAssertEqual(blame(35, https: true, connect: 200, tlsProxy: true), .farSide)
        XCTAssertEqual(blame(35, https: true, connect: 200), .farSide)
        XCTAssertEqual(blame(18, status: 200), .farSide)  // body cut short
        XCTAssertEqual(blame(8), .farSide)  // garbage relayed for a GET
        XCTAssertEqual(blame(56, errno: ECONNRESET, https: true, connect: 200), .farSide)
    }

    func testRealmOfTheChallenge() {
        XCTAssertEqual(ProxyChallenge.realm("Basic realm=\"lab\""), "lab")
        XCTAssertEqual(ProxyChallenge.realm("Basic realm=\"corp \\\"x\\\" proxy\", charset=\"UTF-8\""), "corp \"x\" proxy")
        XCTAssertEqual(ProxyChallenge.realm("Digest nonce=\"1\", realm=squid, qop=auth"), "squid")
        XCTAssertEqual(ProxyChallenge.realm("Basic xrealm=\"no\", realm=\"yes\""), "yes")
        XCTAssertNil(ProxyChallenge.realm("Negotiate"))
        XCTAssertNil(ProxyChallenge.realm("Basic realm=\"unterminated"))
        XCTAssertEqual(ProxyChallenge.realm("Basic realm=\"" + String(repeating: "r", count: 500) + "\"")?.count, 128)
    }
}
