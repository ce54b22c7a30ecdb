@testable import NetprobeWire
@testable import NetprobeVerdict
@testable import NetprobeOutput
@testable import NetprobeReport
@testable import NetprobeSystem
@testable import NetprobeNetwork
@testable import NetprobeCheck
@testable import NetprobeWatch
import XCTest

/// Header parsing and the hard bounds, fed directly as libcurl would.
final class ResponseCollectorTests: XCTestCase {
    private func feed(_ collector: ResponseCollector, _ lines: [String]) {
        for line in lines {
            Array(line.utf8).withUnsafeBytes { collector.receiveHeaderLine($0) }
        }
    }

    func testOnlyTheFinalResponseHeadersAreKept() {
        let collector = ResponseCollector(maxBodyBytes: 10)
        feed(collector, ["HTTP/1.1 100 Continue\r\n", "X-Early: 1\r\n", "\r\n",
                         "HTTP/1.1 302 Found\r\n", "Location:  http://portal.example/ \r\n", "\r\n"])
        XCTAssertEqual(collector.headers.map(\.name), ["location"])
        XCTAssertEqual(collector.headers.first?.value, "http://portal.example/")
    }

    /// Only the first line of a header block is a status line: a header named like one
    /// (`HTTP/x: y`) is a header, and must not erase the Location before it.
    func testAHeaderThatLooksLikeAStatusLineDoesNotResetTheHeaders() {
        let collector = ResponseCollector(maxBodyBytes: 10)
        feed(collector, ["HTTP/1.1 302 Found\r\n", "Location: http://portal.example/\r\n", "HTTP/x: y\r\n",
                         "HTTP/1.1 200 OK\r\n", "X-After: 1\r\n", "\r\n"])
        XCTAssertEqual(collector.headers.map(\.name), ["location", "http/x", "x-after"])
        XCTAssertEqual(collector.headers.first?.value, "http://portal.example/")
    }

    /// Trailers of a chunked body come through the header callback after a blank line too;
    /// one that starts like a status line is not a new response.
    func testATrailerAfterTheBodyDoesNotResetTheHeaders() {
        let collector = ResponseCollector(maxBodyBytes: 10)
        feed(collector, ["HTTP/1.1 200 OK\r\n", "Location: http://portal.example/\r\n", "\r\n"])
        XCTAssertTrue(Array("body".utf8).withUnsafeBytes { collector.appendBody($0) })
        feed(collector, ["HTTP/1.1 302 Found\r\n", "\r\n"])
        XCTAssertEqual(collector.headers.first?.value, "http://portal.example/")
    }

    func testFoldedLinesJoinAndJunkIsIgnored() {
        let collector = ResponseCollector(maxBodyBytes: 10)
        feed(collector, ["HTTP/1.1 200 OK\r\n", "X-Long: part one\r\n", "\t part two\r\n", "no colon here\r\n",
                         "X-Bytes: \u{1B}[31m\r\n"])
        XCTAssertEqual(collector.headers.map(\.name), ["x-long", "x-bytes"])
        XCTAssertEqual(collector.headers[0].value, "part one part two")
        XCTAssertEqual(collector.headers[1].value, "\u{1B}[31m")
    }

    func testInvalidUTF8BecomesReplacementCharacters() {
        let collector = ResponseCollector(maxBodyBytes: 10)
        let line: [UInt8] = Array("X-Raw: a".utf8) + [0xC3, 0x28] + Array("\r\n".utf8)
        line.withUnsafeBytes { collector.receiveHeaderLine($0) }
        XCTAssertEqual(collector.headers.first?.value, "a\u{FFFD}(")
    }

    func testHeaderCountAndSizeAreBounded() {
        let collector = ResponseCollector(maxBodyBytes: 10)
        let long = String(repeating: "v", count: 5000)
        feed(collector, (0..<100).map { "X-\($0): \(long)\r\n" } + ["\(long): x\r\n"])
        XCTAssertEqual(collector.headers.count, ResponseCollector.maxHeaderCount)
        XCTAssertTrue(collector.headers.allSatisfy { $0.value.utf8.count == ResponseCollector.maxHeaderValueBytes })
    }

    func testBodyCap() {
        let collector = ResponseCollector(maxBodyBytes: 5)
        XCTAssertTrue(Array("abc".utf8).withUnsafeBytes { collector.appendBody($0) })
        XCTAssertTrue(Array("de".utf8).withUnsafeBytes { collector.appendBody($0) })
        XCTAssertFalse(collector.bodyTruncated, "exactly at the cap is complete")
        XCTAssertFalse(Array("f".utf8).withUnsafeBytes { collector.appendBody($0) })
        XCTAssertTrue(collector.bodyTruncated)
        XCTAssertEqual(collector.body, Array("abcde".utf8))
    }

    func testZeroAndNegativeCapsKeepNothing() {
        let collector = ResponseCollector(maxBodyBytes: -1)
        XCTAssertFalse(Array("x".utf8).withUnsafeBytes { collector.appendBody($0) })
        XCTAssertEqual(collector.body, [])
        XCTAssertTrue(collector.bodyTruncated)
    }
}
