import Foundation
import NetprobeCore
import NetprobeHTTP
import XCTest

/// HTTPS against probe_server.py with a throw-away self-signed certificate for 127.0.0.1.
final class ProbeRunnerTLSTests: ServerTestCase {
    nonisolated(unsafe) private static var certificateDirectory: URL?

    static var certificate: String { certificateDirectory?.appendingPathComponent("cert.pem").path ?? "/nonexistent" }

    override class func makeServer() throws -> ProbeServer {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("netprobe-tls-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        certificateDirectory = directory
        let openssl = Process()
        openssl.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        openssl.arguments = [
            "openssl", "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes",
            "-keyout", directory.appendingPathComponent("key.pem").path,
            "-out", directory.appendingPathComponent("cert.pem").path,
            "-days", "2", "-subj", "/CN=127.0.0.1", "-addext", "subjectAltName=IP:127.0.0.1",
        ]
        openssl.standardOutput = FileHandle.nullDevice
        openssl.standardError = FileHandle.nullDevice
        try openssl.run()
        openssl.waitUntilExit()
        guard openssl.terminationStatus == 0 else { throw CocoaError(.fileWriteUnknown) }
        return try ProbeServer(extra: ["--tls", certificate, directory.appendingPathComponent("key.pem").path])
    }

    override class func tearDown() {
        super.tearDown()
        if let certificateDirectory { try? FileManager.default.removeItem(at: certificateDirectory) }
    }

    private func httpsRequest(caBundle: String?) throws -> ProbeRequest {
        ProbeRequest(name: "https", url: try server.url("/generate_204", scheme: "https"), timeout: 5, caBundle: caBundle)
    }

    func testUntrustedCertificateIsATLSFailure() throws {
        let (results, _, _) = try run([try httpsRequest(caBundle: nil)])
        let result = try XCTUnwrap(results.first)
        XCTAssertEqual(result.transportError?.kind, .tls)
        XCTAssertEqual(result.transportError?.code, 60, "CURLE_PEER_FAILED_VERIFICATION")
        XCTAssertNil(result.status)
        XCTAssertEqual(result.remoteAddress, "127.0.0.1")
    }

    func testTrustedBundleSucceedsAndTimesTheHandshake() throws {
        let (results, _, _) = try run([try httpsRequest(caBundle: Self.certificate)])
        let result = try XCTUnwrap(results.first)
        XCTAssertNil(result.transportError)
        XCTAssertEqual(result.status, 204)
        let connect = try XCTUnwrap(result.timings.connectMs)
        let tls = try XCTUnwrap(result.timings.tlsMs)
        XCTAssertGreaterThanOrEqual(tls, connect)
    }

    func testMissingBundleIsATLSFailure() throws {
        let (results, _, _) = try run([try httpsRequest(caBundle: "/nonexistent/netprobe-ca.pem")])
        XCTAssertEqual(results.first?.transportError?.kind, .tls)
    }
}
