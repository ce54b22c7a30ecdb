import NetprobeWire
import NetprobeVerdict
import NetprobeOutput
import NetprobeReport
import NetprobeSystem
import NetprobeNetwork
import NetprobeCheck
import NetprobeWatch
import XCTest

/// Transfers that produce no usable answer: each must carry the right error class.
final class ProbeRunnerFailureTests: ServerTestCase {
    func testGarbageIsAProtocolError() throws {
        let result = try runOne("/garbage")
        XCTAssertEqual(result.transportError?.kind, .proto)
        XCTAssertNil(result.status)
        XCTAssertEqual(result.remoteAddress, "127.0.0.1")
        XCTAssertFalse(result.transportError?.message.isEmpty ?? true)
    }

    func testResetIsAReset() throws {
        let result = try runOne("/reset")
        XCTAssertEqual(result.transportError?.kind, .reset)
        XCTAssertNil(result.status)
    }

    func testClosedPortIsRefused() throws {
        let closed = try ClosedPort()
        let request = ProbeRequest(name: "closed", url: "http://127.0.0.1:\(closed.port)/generate_204", timeout: 5)
        let (results, _, _) = try run([request])
        let error = try XCTUnwrap(results.first?.transportError)
        XCTAssertEqual(error.kind, .refused)
        XCTAssertEqual(error.code, 7, "CURLE_COULDNT_CONNECT")
        XCTAssertFalse(error.message.isEmpty)
    }

    func testStallHitsThePerProbeTimeout() throws {
        let (results, _, elapsed) = try run([try request("/stall", timeout: 0.5)], deadlineIn: 20)
        XCTAssertEqual(results.first?.transportError?.kind, .timeout)
        XCTAssertEqual(results.first?.transportError?.code, 28, "libcurl's own CURLE_OPERATION_TIMEDOUT")
        XCTAssertGreaterThanOrEqual(elapsed, 0.45)
        XCTAssertLessThan(elapsed, 5)
    }

    func testStalledBodyKeepsTheStatusAndTimesOut() throws {
        let result = try runOne("/stall-body", timeout: 0.5)
        XCTAssertEqual(result.transportError?.kind, .timeout)
        XCTAssertEqual(result.status, 200)
        XCTAssertEqual(result.header("content-length"), "1000")
        XCTAssertEqual(result.body, [])
    }

    func testSchemeOtherThanHTTPIsRefusedWithoutTraffic() throws {
        let request = ProbeRequest(name: "ftp", url: "ftp://127.0.0.1:1/", timeout: 5)
        let (results, _, _) = try run([request])
        XCTAssertEqual(results.first?.transportError?.kind, .other)
        XCTAssertNil(results.first?.remoteAddress)
    }

    func testMissingInterfaceIsUnreachable() throws {
        var request = try request("/generate_204")
        request.interface = "npnosuch0"
        let (results, _, _) = try run([request])
        XCTAssertEqual(results.first?.transportError?.kind, .unreachable)
    }

    func testLoopbackInterfaceAndFamilyBindingWork() throws {
        var request = try request("/generate_204")
        request.interface = "lo"
        request.family = .ipv4
        let (results, _, _) = try run([request])
        XCTAssertNil(results.first?.transportError)
        XCTAssertEqual(results.first?.status, 204)
    }

    func testNULInURLIsRejectedNotTruncated() throws {
        let request = ProbeRequest(name: "nul", url: try server.url("/generate_204") + "\0/elsewhere", timeout: 5)
        let (results, delivered, _) = try run([request])
        XCTAssertEqual(results.first?.transportError?.kind, .other)
        XCTAssertNil(results.first?.status)
        XCTAssertEqual(delivered, ["nul"])
    }
}
