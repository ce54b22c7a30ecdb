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

/// HTTPS through the proxy's CONNECT tunnel to probe_server.py with a throw-away
/// certificate for 127.0.0.1: the far side's TLS is checked end to end, as without a proxy.
final class ProxyTLSTests: ServerTestCase {
    nonisolated(unsafe) private static var directory: URL?

    static var certificate: String { directory?.appendingPathComponent("cert.pem").path ?? "/nonexistent" }

    override class func makeServer() throws -> ProbeServer {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("netprobe-proxy-tls-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        Self.directory = directory
        let openssl = Process()
        openssl.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        openssl.arguments = [
            "openssl", "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes",
            "-keyout", directory.appendingPathComponent("key.pem").path, "-out", certificate,
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
        if let directory { try? FileManager.default.removeItem(at: directory) }
    }

    private func request(via proxy: ForwardProxy, caBundle: String?) throws -> ProbeRequest {
        ProbeRequest(name: "https", url: try server.url("/generate_204", scheme: "https"), timeout: 5,
                     caBundle: caBundle, proxy: try ProxyURL(parsing: proxy.url))
    }

    func testHTTPSIsTunnelledWithConnect() throws {
        let proxy = try ForwardProxy()
        let (results, _, _) = try run([try request(via: proxy, caBundle: Self.certificate)])
        let result = try XCTUnwrap(results.first)
        XCTAssertNil(result.transportError)
        XCTAssertEqual(result.status, 204)
        XCTAssertEqual(result.proxyConnectStatus, 200)
        XCTAssertEqual(result.proxy, proxy.url)
        XCTAssertNotNil(result.timings.tlsMs)
        XCTAssertTrue(proxy.log.contains("CONNECT 127.0.0.1:\(try server.port)"), proxy.log)
    }

    func testFarSideCertificateFailureStaysTLS() throws {
        let proxy = try ForwardProxy()
        let (results, _, _) = try run([try request(via: proxy, caBundle: nil)])
        let result = try XCTUnwrap(results.first)
        XCTAssertEqual(result.transportError?.kind, .tls, "the proxy did its part; the far side's certificate failed")
        XCTAssertEqual(result.proxyConnectStatus, 200)
    }
}
