@testable import NetprobeWire
@testable import NetprobeVerdict
@testable import NetprobeOutput
@testable import NetprobeReport
@testable import NetprobeSystem
@testable import NetprobeNetwork
@testable import NetprobeCheck
@testable import NetprobeWatch
import XCTest

/// The options netprobe sets for a libcurl older than the one loaded here (7.74: Debian 11),
/// run on this one: the bit-mask CURLOPT_PROTOCOLS instead of CURLOPT_PROTOCOLS_STR, and no
/// CURLOPT_QUICK_EXIT, so the runner ends transfers at their limit itself. The real 7.74 is
/// run in Tests/ecosystem/test-debian11.sh.
final class OlderLibcurlTests: ServerTestCase {
    private let debian11 = CurlLibrary(versionNumber: 0x074A00, version: "7.74.0")

    private func runAsDebian11(_ requests: [ProbeRequest], deadlineIn seconds: Double = 10) throws -> [ProbeObservation] {
        let runner = try ProbeRunner(actingAs: debian11)
        return runner.run(requests, deadline: .now + .seconds(seconds)) { _ in true }
    }

    func testTheVersionDecidesWhichOptionsAreSet() {
        XCTAssertFalse(debian11.hasProtocolsString)
        XCTAssertFalse(debian11.hasQuickExit)
        let bookworm = CurlLibrary(versionNumber: 0x075801, version: "7.88.1")
        XCTAssertTrue(bookworm.hasProtocolsString)
        XCTAssertTrue(bookworm.hasQuickExit)
        XCTAssertTrue(CurlLibrary(versionNumber: 0x075500, version: "7.85.0").hasProtocolsString)
        XCTAssertFalse(CurlLibrary(versionNumber: 0x075500, version: "7.85.0").hasQuickExit)
        XCTAssertEqual(debian11.description, "libcurl 7.74.0")
    }

    func testAProbeIsValidated() throws {
        let results = try runAsDebian11([try request("/generate_204", name: "google")])
        XCTAssertEqual(results.first?.status, 204)
        XCTAssertNil(results.first?.transportError)
    }

    /// The bit mask restricts schemes as the string did: no request, no connection.
    func testSchemeOtherThanHTTPIsRefusedWithoutTraffic() throws {
        let results = try runAsDebian11([ProbeRequest(name: "ftp", url: "ftp://127.0.0.1:1/", timeout: 5)])
        XCTAssertEqual(results.first?.transportError?.kind, .other)
        XCTAssertNil(results.first?.remoteAddress)
    }

    func testARedirectIsReportedNotFollowed() throws {
        let results = try runAsDebian11([try request("/redirect?location=http%3A%2F%2F127.0.0.1%3A1%2Flogin", name: "portal")])
        XCTAssertEqual(results.first?.status, 302)
        XCTAssertEqual(results.first?.header("location"), "http://127.0.0.1:1/login")
    }

    /// The runner ends a transfer at its limit itself, before libcurl's own limit (set later):
    /// the error is the runner's, worded as libcurl words its own.
    func testTheRunnerEndsATransferAtItsLimit() throws {
        let results = try runAsDebian11([try request("/stall", name: "stall", timeout: 1)])
        let error = try XCTUnwrap(results.first?.transportError)
        XCTAssertEqual(error.kind, .timeout)
        XCTAssertEqual(error.message, "Operation timed out after 1000 milliseconds")
    }

    /// What the overall deadline ends is reported as before, whichever libcurl.
    func testTheOverallDeadlineEndsEveryTransfer() throws {
        let results = try runAsDebian11([try request("/stall", name: "a", timeout: 30), try request("/stall-body", name: "b", timeout: 30)],
                                        deadlineIn: 1)
        XCTAssertEqual(results.map { $0.transportError?.kind }, [.timeout, .timeout])
    }
}
