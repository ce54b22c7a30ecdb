@testable import NetprobeHTTP
import NetprobeCore
import XCTest

#if canImport(Glibc)
import Glibc
#endif

/// The CURLcode (+ errno) → error class table. Codes are libcurl's stable numbers.
final class CurlErrorClassifierTests: XCTestCase {
    private func kind(_ code: UInt32, errno: Int32 = 0, connected: Bool = false) -> TransportErrorKind {
        CurlErrorClassifier.kind(code: code, osErrno: errno, connected: connected)
    }

    func testNameResolution() {
        XCTAssertEqual(kind(6), .dns)  // COULDNT_RESOLVE_HOST
        XCTAssertEqual(kind(5), .dns)  // COULDNT_RESOLVE_PROXY
    }

    func testConnectFailuresAreSplitByErrno() {
        XCTAssertEqual(kind(7, errno: ECONNREFUSED), .refused)
        XCTAssertEqual(kind(7, errno: ENETUNREACH), .unreachable)
        XCTAssertEqual(kind(7, errno: EHOSTUNREACH), .unreachable)
        XCTAssertEqual(kind(7, errno: ENETDOWN), .unreachable)
        XCTAssertEqual(kind(7, errno: ETIMEDOUT), .timeout)
        XCTAssertEqual(kind(7, errno: 0), .unreachable)
        XCTAssertEqual(kind(45), .unreachable)  // INTERFACE_FAILED
    }

    func testTimeoutsAndTLS() {
        XCTAssertEqual(kind(28), .timeout)
        for code: UInt32 in [35, 53, 54, 58, 59, 60, 64, 66, 77, 80, 82, 83, 90, 91, 98] {
            XCTAssertEqual(kind(code), .tls, "CURLcode \(code)")
        }
    }

    func testResetsAndProtocolErrors() {
        XCTAssertEqual(kind(52, errno: ECONNRESET), .reset)  // GOT_NOTHING
        XCTAssertEqual(kind(56, errno: ECONNRESET), .reset)  // RECV_ERROR
        XCTAssertEqual(kind(55), .reset)  // SEND_ERROR
        XCTAssertEqual(kind(18), .reset)  // PARTIAL_FILE: closed mid-body
        XCTAssertEqual(kind(56, errno: ETIMEDOUT), .timeout)
        XCTAssertEqual(kind(8), .proto)  // WEIRD_SERVER_REPLY
        XCTAssertEqual(kind(16), .proto)  // HTTP2 framing
        XCTAssertEqual(kind(61), .proto)  // BAD_CONTENT_ENCODING
        XCTAssertEqual(kind(1, connected: true), .proto)  // HTTP/0.9 from a server
        XCTAssertEqual(kind(1, connected: false), .other)  // scheme not allowed: never sent
        // "Too large response headers": a receive error with no errno from a connected peer.
        XCTAssertEqual(kind(56, connected: true), .proto)
        XCTAssertEqual(kind(56, errno: ECONNRESET, connected: true), .reset)
    }

    func testEverythingElseIsOther() {
        XCTAssertEqual(kind(3), .other)  // URL_MALFORMAT
        XCTAssertEqual(kind(27), .other)  // OUT_OF_MEMORY
        XCTAssertEqual(kind(42), .cancelled)  // ABORTED_BY_CALLBACK
        XCTAssertEqual(kind(9999), .other)
    }
}
