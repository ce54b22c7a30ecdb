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

    /// One row per CURLcode netprobe can meet (HTTP(S) over libcurl multi, no redirects
    /// followed, body capped by our write callback), connected or not, with no errno.
    func testTableOfEveryCodeNetprobeCanMeet() {
        let table: [(code: UInt32, name: String, before: TransportErrorKind, after: TransportErrorKind)] = [
            (1, "UNSUPPORTED_PROTOCOL", .other, .proto),  // a scheme we refuse / HTTP/0.9 garbage
            (3, "URL_MALFORMAT", .other, .other),
            (5, "COULDNT_RESOLVE_PROXY", .dns, .dns),
            (6, "COULDNT_RESOLVE_HOST", .dns, .dns),
            (7, "COULDNT_CONNECT", .unreachable, .unreachable),
            (8, "WEIRD_SERVER_REPLY", .proto, .proto),
            (16, "HTTP2", .proto, .proto),
            (18, "PARTIAL_FILE", .reset, .reset),
            (23, "WRITE_ERROR", .other, .other),  // our body cap: handled before classifying
            (27, "OUT_OF_MEMORY", .other, .proto),  // libcurl < 8.6: one header line over 100 KiB
            (28, "OPERATION_TIMEDOUT", .timeout, .timeout),
            (35, "SSL_CONNECT_ERROR", .tls, .tls),
            (42, "ABORTED_BY_CALLBACK", .cancelled, .cancelled),
            (43, "BAD_FUNCTION_ARGUMENT", .other, .other),
            (45, "INTERFACE_FAILED", .unreachable, .unreachable),
            (47, "TOO_MANY_REDIRECTS", .other, .other),
            (52, "GOT_NOTHING", .reset, .reset),
            (55, "SEND_ERROR", .reset, .reset),
            (56, "RECV_ERROR", .reset, .proto),  // connected, no errno: header block too large, bad chunking
            (58, "SSL_CERTPROBLEM", .tls, .tls),
            (60, "PEER_FAILED_VERIFICATION", .tls, .tls),
            (61, "BAD_CONTENT_ENCODING", .proto, .proto),
            (77, "SSL_CACERT_BADFILE", .tls, .tls),
            (92, "HTTP2_STREAM", .proto, .proto),
            (95, "HTTP3", .proto, .proto),
            (100, "TOO_LARGE", .proto, .proto),  // libcurl 8.6+: header over the limit
        ]
        for row in table {
            XCTAssertEqual(kind(row.code, connected: false), row.before, "CURLE_\(row.name) before connecting")
            XCTAssertEqual(kind(row.code, connected: true), row.after, "CURLE_\(row.name) once connected")
        }
    }

    func testConflictingContentLengthsAreAFramingError() {
        let two = [(name: "content-length", value: "7"), (name: "content-length", value: "24")]
        XCTAssertEqual(Framing.error(headers: two)?.kind, .proto)
        XCTAssertEqual(Framing.error(headers: [(name: "content-length", value: "7, 24")])?.kind, .proto)
        // The same length twice, or as a list of one value, is allowed (RFC 9110 8.6).
        XCTAssertNil(Framing.error(headers: [(name: "content-length", value: "7"), (name: "content-length", value: "7")]))
        XCTAssertNil(Framing.error(headers: [(name: "content-length", value: "7 , 7")]))
        XCTAssertNil(Framing.error(headers: [(name: "content-type", value: "a"), (name: "content-length", value: "7")]))
    }

    func testEverythingElseIsOther() {
        XCTAssertEqual(kind(3), .other)  // URL_MALFORMAT
        XCTAssertEqual(kind(27), .other)  // OUT_OF_MEMORY before any peer
        XCTAssertEqual(kind(42), .cancelled)  // ABORTED_BY_CALLBACK
        XCTAssertEqual(kind(9999), .other)
    }
}
