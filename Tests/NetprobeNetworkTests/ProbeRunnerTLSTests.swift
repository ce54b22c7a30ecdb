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

/// HTTPS against probe_server.py with a throw-away self-signed certificate for 127.0.0.1.
final class ProbeRunnerTLSTests: ServerTestCase {
    nonisolated(unsafe) private static var certificateDirectory: URL?

    static var certificate: String { certificateDirectory?.appendingPathComponent("cert.pem").path ?? "/nonexistent" }

    override class func makeServer() throws -> ProbeServer {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("netprobe-tls-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        certificateDirectory = directory
        try selfSigned(key: directory.appendingPathComponent("key.pem").path, certificate: certificate)
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

    // MARK: - One certificate store per round (TrustShares)

    /// A hashed directory (`openssl rehash`, as update-ca-certificates leaves /etc/ssl/certs)
    /// holding `certificate`, or a fresh self-signed one for 127.0.0.1 the server does not use.
    private func hashedDirectory(trusting certificate: String?) throws -> String {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("netprobe-capath-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        addTeardownBlock { try? FileManager.default.removeItem(at: directory) }
        let pem = directory.appendingPathComponent("ca.pem").path
        if let certificate {
            try FileManager.default.copyItem(atPath: certificate, toPath: pem)
        } else {
            try Self.selfSigned(key: directory.appendingPathComponent("other.key").path, certificate: pem)
        }
        try Self.tool(["openssl", "rehash", directory.path])
        return directory.path
    }

    /// A throw-away self-signed certificate for 127.0.0.1.
    private static func selfSigned(key: String, certificate: String) throws {
        try tool(["openssl", "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes",
                  "-keyout", key, "-out", certificate, "-days", "2",
                  "-subj", "/CN=127.0.0.1", "-addext", "subjectAltName=IP:127.0.0.1"])
    }

    private static func tool(_ arguments: [String]) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = arguments
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { throw CocoaError(.fileWriteUnknown) }
    }

    private func httpsRequests(_ count: Int, directory: String, prefix: String) throws -> [ProbeRequest] {
        try (0..<count).map { index in
            ProbeRequest(name: "\(prefix)\(index)", url: try server.url("/generate_204", scheme: "https"), timeout: 5,
                         caDirectory: directory)
        }
    }

    func testHandshakesOfARoundShareTheDirectorysStore() throws {
        let trusted = try hashedDirectory(trusting: Self.certificate)
        let runner = try ProbeRunner()
        let results = runner.run(try httpsRequests(4, directory: trusted, prefix: "t"), deadline: .now + .seconds(10)) { _ in true }
        XCTAssertEqual(results.map(\.status), [204, 204, 204, 204], "\(results.map(\.transportError))")
        XCTAssertEqual(runner.sharedTrustHandshakes, 3, "the first handshake builds the store, the other three reuse it")
        // The next round builds its own: nothing read from the directory outlives a round.
        _ = runner.run(try httpsRequests(1, directory: trusted, prefix: "n"), deadline: .now + .seconds(10)) { _ in true }
        XCTAssertEqual(runner.sharedTrustHandshakes, 0)
    }

    /// The kernel's count of the connections' payload holds what libcurl's HTTP sizes leave out:
    /// the TLS handshake (the server's certificate alone is larger than the HTTP exchange).
    func testWireBytesCountTheTLSRecordsOfEveryConnection() throws {
        let trusted = try hashedDirectory(trusting: Self.certificate)
        let runner = try ProbeRunner()
        XCTAssertEqual(runner.wireBytes, WireBytes())
        let results = runner.run(try httpsRequests(2, directory: trusted, prefix: "w"), deadline: .now + .seconds(10)) { _ in true }
        XCTAssertEqual(results.map(\.status), [204, 204], "\(results.map(\.transportError))")
        let http = results.reduce((0, 0)) { ($0.0 + $1.bytesSent, $0.1 + $1.bytesReceived) }
        let first = runner.wireBytes
        XCTAssertGreaterThan(first.tcpSent, http.0 + 2 * 200, "two ClientHellos beside the requests")
        XCTAssertGreaterThan(first.tcpReceived, http.1 + 2 * 500, "two certificates beside the answers")
        XCTAssertEqual(first.dnsSent + first.dnsReceived, 0, "a runner sends no DNS of its own")
        // Running totals: the next round adds to them.
        _ = runner.run(try httpsRequests(1, directory: trusted, prefix: "x"), deadline: .now + .seconds(10)) { _ in true }
        XCTAssertGreaterThan(runner.wireBytes.tcpReceived, first.tcpReceived)
    }

    /// A runner resumes its TLS sessions from round to round (watch's re-checks): the server's
    /// certificate is not sent again. Every round still opens connections of its own.
    func testLaterRoundsResumeTheirTLSSessions() throws {
        let trusted = try hashedDirectory(trusting: Self.certificate)
        let runner = try ProbeRunner()
        var received: [Int] = []
        for round in 0..<3 {
            let before = runner.wireBytes.tcpReceived
            let results = runner.run(try httpsRequests(1, directory: trusted, prefix: "r\(round)-"), deadline: .now + .seconds(10)) { _ in true }
            XCTAssertEqual(results.map(\.status), [204], "\(results.map(\.transportError))")
            XCTAssertEqual(results.first?.timings.connectMs.map { $0 > 0 }, true, "a connection of its own")
            received.append(runner.wireBytes.tcpReceived - before)
        }
        XCTAssertLessThan(received[1], received[0] - 300, "the second round resumed: no certificate chain \(received)")
        XCTAssertLessThan(received[2], received[0] - 300, "and the third \(received)")
    }

    func testASharedStoreTrustsOnlyItsOwnDirectory() throws {
        let trusted = try hashedDirectory(trusting: Self.certificate)
        let other = try hashedDirectory(trusting: nil)
        // Interleaved, in one round: a store built for one directory must never answer for the other.
        let requests = zip(try httpsRequests(3, directory: other, prefix: "o"), try httpsRequests(3, directory: trusted, prefix: "t"))
            .flatMap { [$0, $1] }
        let runner = try ProbeRunner()
        let results = runner.run(requests, deadline: .now + .seconds(10)) { _ in true }
        for result in results where result.name.hasPrefix("t") {
            XCTAssertEqual(result.status, 204, "\(result.name): \(String(describing: result.transportError))")
        }
        for result in results where result.name.hasPrefix("o") {
            XCTAssertEqual(result.transportError?.code, 60, "\(result.name) must fail verification")
            XCTAssertNil(result.status)
        }
        XCTAssertEqual(runner.sharedTrustHandshakes, 4, "two reuses per directory")
    }

    /// libcurl keeps a bundle's store on the multi handle for 24 hours; a runner lives as long
    /// as `watch` does. Each run must read the bundle as it is now: a CA taken out of it is
    /// distrusted from the next round on.
    func testEachRunReadsTheBundleAsItIsNow() throws {
        let bundle = FileManager.default.temporaryDirectory.appendingPathComponent("netprobe-bundle-\(UUID().uuidString).pem").path
        addTeardownBlock { try? FileManager.default.removeItem(atPath: bundle) }
        let other = try hashedDirectory(trusting: nil) + "/ca.pem"
        let runner = try ProbeRunner()
        func status(trusting certificate: String) throws -> ProbeObservation {
            try? FileManager.default.removeItem(atPath: bundle)
            try FileManager.default.copyItem(atPath: certificate, toPath: bundle)
            return runner.run([try httpsRequest(caBundle: bundle)], deadline: .now + .seconds(10)) { _ in true }[0]
        }
        XCTAssertEqual(try status(trusting: Self.certificate).status, 204)
        let distrusted = try status(trusting: other)
        XCTAssertEqual(distrusted.transportError?.code, 60, "the server's CA is no longer in the bundle")
        XCTAssertNil(distrusted.status)
        XCTAssertEqual(try status(trusting: Self.certificate).status, 204)
    }

    func testMissingBundleIsATLSFailure() throws {
        let (results, _, _) = try run([try httpsRequest(caBundle: "/nonexistent/netprobe-ca.pem")])
        XCTAssertEqual(results.first?.transportError?.kind, .tls)
    }
}
