import Foundation
import Testing

/// HTTPS probes against a loopback TLS server with a throwaway self-signed
/// certificate: certificate checks, `--ca-bundle`, and the "partial" flag (HTTP
/// validated while HTTPS failed).
@Suite(.timeLimit(.minutes(2)))
struct TLSTests {
    /// A self-signed certificate for 127.0.0.1, made fresh in the sandbox; in no CA bundle.
    static func makeCertificate(in sandbox: Sandbox) throws -> (certificate: String, key: String) {
        let certificate = sandbox.path("cert.pem"), key = sandbox.path("key.pem")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["openssl", "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1",
                             "-nodes", "-days", "1", "-subj", "/CN=127.0.0.1",
                             "-addext", "subjectAltName=IP:127.0.0.1", "-keyout", key, "-out", certificate]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw HarnessError(description: "openssl could not make a test certificate (exit \(process.terminationStatus))")
        }
        return (certificate, key)
    }

    /// Two HTTP operators that answer at once, a third that answers after 700 ms (so the
    /// verdict is not final before the HTTPS probe has settled: a fast HTTPS failure is
    /// then evidence, not a cancelled transfer), and the HTTPS probe at `httpsURL`.
    static func mixedSet(httpsURL: String) -> ProbeSet {
        var set = ProbeSet.healthy(2, quorum: 3)
        set.add("slow", expecting: .google, path: "/slow?ms=700")
        set.add("https", url: httpsURL, expect: ["status": [204]])
        return set
    }

    static func servers(_ tls: (certificate: String, key: String)) -> [String] {
        [ProbeSet.httpServer, "--port \(ProbeSet.tlsPort) --tls \(tls.certificate) \(tls.key)"]
    }

    static var httpsURL: String { ProbeSet.url("/generate_204", port: ProbeSet.tlsPort, scheme: "https") }

    @Test func httpsRefusedWhileHTTPValidatesIsPartial() throws {
        let sandbox = try Sandbox()
        let config = try sandbox.write(Self.mixedSet(
            httpsURL: ProbeSet.url("/generate_204", port: ProbeSet.closedPort, scheme: "https")))
        let run = try sandbox.run(["--json", "--config", config], servers: [ProbeSet.httpServer])
        #expect(run.status == 0, "\(run)")
        let report = try run.report()
        #expect(report.verdict == "online", "\(run)")
        #expect(report.reason == "probes-validated", "\(run)")
        #expect(report.partial == true, "\(run)")
        let https = try #require(report.probe("https"), "\(run)")
        #expect(https.outcome == "failure", "\(https)")
        #expect(https.errorClass == "refused", "\(https)")
        #expect(run.stdout.contains("\"partial\":true"), "\(run)")
    }

    @Test func untrustedCertificateIsATLSFailure() throws {
        let sandbox = try Sandbox()
        let tls = try Self.makeCertificate(in: sandbox)
        let config = try sandbox.write(Self.mixedSet(httpsURL: Self.httpsURL))
        let run = try sandbox.run(["--json", "--config", config], servers: Self.servers(tls))
        #expect(run.status == 0, "\(run)")
        let report = try run.report()
        #expect(report.verdict == "online", "\(run)")
        #expect(report.partial == true, "\(run)")
        let https = try #require(report.probe("https"), "\(run)")
        #expect(https.outcome == "failure", "\(https)")
        #expect(https.errorClass == "tls", "\(https)")
        #expect(https.status == nil, "\(https)")
    }

    /// The same server is trusted once its certificate is the CA bundle: HTTPS validates.
    @Test func caBundleMakesTheCertificateTrusted() throws {
        let sandbox = try Sandbox()
        let tls = try Self.makeCertificate(in: sandbox)
        let config = try sandbox.write(Self.mixedSet(httpsURL: Self.httpsURL))
        let run = try sandbox.run(["--json", "--config", config, "--ca-bundle", tls.certificate],
                                  servers: Self.servers(tls))
        #expect(run.status == 0, "\(run)")
        let report = try run.report()
        #expect(report.verdict == "online", "\(run)")
        #expect(report.partial == false, "\(run)")
        let https = try #require(report.probe("https"), "\(run)")
        #expect(https.outcome == "success", "\(https)")
        #expect(https.status == 204, "\(https)")
        let tlsMs = https.timings?["tls_ms"]
        #expect(tlsMs is Double || tlsMs is Int, "\(https)")
    }

    @Test func onlyUntrustedHTTPSIsOfflineTLSFailed() throws {
        let sandbox = try Sandbox()
        let tls = try Self.makeCertificate(in: sandbox)
        var set = ProbeSet()
        for name in ["one", "two", "three"] {
            set.add(name, url: Self.httpsURL, expect: ["status": [204]])
        }
        let config = try sandbox.write(set)
        let run = try sandbox.run(["--json", "--config", config], servers: Self.servers(tls))
        #expect(run.status == 1, "\(run)")
        let report = try run.report()
        #expect(report.verdict == "offline", "\(run)")
        #expect(report.reason == "tls-failed", "\(run)")
        // One operator can never make a quorum: the verdict is final at the first answers, and
        // a probe still in flight then is skipped (its outcome says so), never counted.
        let sent = report.probes.filter { $0.outcome != "skipped" }
        #expect(!sent.isEmpty && sent.allSatisfy { $0.errorClass == "tls" }, "\(run)")
    }

    /// A --ca-bundle that does not exist is a mistake on the command line, not a network
    /// that fails TLS: it must not come out as "offline, tls-failed".
    @Test func missingCABundleIsABadCommandLine() throws {
        let sandbox = try Sandbox()
        let tls = try Self.makeCertificate(in: sandbox)
        var set = ProbeSet(quorum: 1)
        set.add("https", url: Self.httpsURL, expect: ["status": [204]])
        let config = try sandbox.write(set)
        let missing = sandbox.path("no-such-ca.pem")
        let run = try sandbox.run(["--json", "--config", config, "--ca-bundle", missing], servers: Self.servers(tls))
        #expect(run.status == 64, "\(run)")
        #expect(run.stderr.contains(missing), "\(run)")
        #expect(run.stdout.isEmpty, "\(run)")
    }
}
