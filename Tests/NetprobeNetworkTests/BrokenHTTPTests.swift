import NetprobeWire
import NetprobeVerdict
import NetprobeOutput
import NetprobeReport
import NetprobeSystem
import NetprobeNetwork
import NetprobeCheck
import NetprobeWatch
import XCTest

/// Answers that break HTTP itself, from probe_server.py on loopback: each is a protocol
/// error (the far side's fault), whatever libcurl's code for it, never a portal's content.
final class BrokenHTTPTests: ServerTestCase {
    func testHeaderLineOverLibcurlsLimitIsAProtocolError() throws {
        let result = try runOne("/huge-header-line")
        XCTAssertEqual(result.transportError?.kind, .proto, "\(String(describing: result.transportError))")
        XCTAssertNotEqual(result.transportError?.kind, .unreachable)
    }

    func testHeaderBlockOverLibcurlsLimitIsAProtocolError() throws {
        let result = try runOne("/big-headers?count=80&size=5000")
        XCTAssertEqual(result.transportError?.kind, .proto, "\(String(describing: result.transportError))")
    }

    func testConflictingContentLengthsAreAProtocolErrorNotContent() throws {
        let result = try runOne("/conflicting-length")
        let error = try XCTUnwrap(result.transportError)
        XCTAssertEqual(error.kind, .proto)
        XCTAssertEqual(error.code, 8, "reported as CURLE_WEIRD_SERVER_REPLY")
        XCTAssertTrue(error.message.contains("conflicting Content-Length"), error.message)
        XCTAssertEqual(result.status, 200, "what arrived is kept as evidence")
        let spec = ProbeSpec(name: "firefox", url: "http://127.0.0.1/success.txt", operatorName: "mozilla",
                             expect: Expectation(statuses: [200], body: .prefix("success")))
        let evidence = Classifier.classify(result, for: spec)
        XCTAssertEqual(evidence.outcome, .failure)
        XCTAssertEqual(evidence.errorClass, .proto)
    }

    func testBrokenChunkingIsAProtocolError() throws {
        XCTAssertEqual(try runOne("/bad-chunked").transportError?.kind, .proto)
    }

    func testStatusLineWithoutANumberIsAProtocolError() throws {
        let result = try runOne("/bad-status-line")
        XCTAssertEqual(result.transportError?.kind, .proto)
        XCTAssertNil(result.status)
    }
}
