import Foundation
@testable import NetprobeWire
@testable import NetprobeVerdict
@testable import NetprobeOutput
@testable import NetprobeReport
@testable import NetprobeSystem
@testable import NetprobeNetwork
@testable import NetprobeCheck
@testable import NetprobeWatch
import Testing

/// Proxy, partial error and the new report keys in JSON, text and Prometheus.
@Suite struct PortalReportTests {
    typealias F = PortalFixtures
    static let all = ["apple", "google", "firefox", "microsoft", "gnome", "google-https"]

    static func json(_ report: Report) throws -> [String: Any] {
        let object = try JSONSerialization.jsonObject(with: Data(JSONFormatter.format(report).utf8))
        return try #require(object as? [String: Any])
    }

    @Test func transparentProxyStaysOnlineWithAFlag() throws {
        let via = [("Via", "1.1 proxy.lab (squid/5.7)")]
        let report = F.report(Self.all.map { F.correct($0, headers: via) })
        #expect(report.verdict == .online && report.proxy)
        #expect(try Self.json(report)["proxy"] as? Bool == true)
        #expect(TextFormatter.format(report).contains("proxy: answers came through a transparent proxy"))
        #expect(PrometheusFormatter.format(report).contains("netprobe_proxy 1\n"))
    }

    @Test(arguments: [
        [("X-Cache", "MISS from cache.lab"), ("X-Cache-Lookup", "MISS from cache.lab:3128")],
        [("X-Squid-Error", "ERR_NONE 0")],
        [("Via", "1.0 a.example, 1.1 Shared-Box")],
    ])
    func proxySignsShared(_ headers: [(String, String)]) {
        #expect(NetworkInsights.proxy(["apple", "firefox"].map { F.correct($0, headers: headers) }))
    }

    /// Each vendor's own CDN stamps only its own answers: not a proxy on this network.
    @Test func vendorCDNsAreNotAProxy() {
        let evidence = [F.correct("apple", headers: [("Via", "http/1.1 a.apple.com (ApacheTrafficServer)"), ("X-Cache", "hit-fresh")]),
                        F.correct("firefox", headers: [("Via", "1.1 google")]),
                        F.correct("microsoft", headers: [("X-Cache", "TCP_HIT")]),
                        F.correct("google", headers: [("Via", "1.1 google")]),
                        F.correct("google-https", headers: [("Via", "1.1 google")])]
        #expect(!NetworkInsights.proxy(evidence.filter { $0.spec.operatorName != "mozilla" }))
        // The same Via on one operator's two probes is still one operator.
        #expect(!NetworkInsights.proxy([evidence[3], evidence[4]]))
        // A proxy stamping portal pages does not make "proxy": only correct answers count.
        let pages = ["apple", "firefox"].map { F.answer($0, status: 200, body: "login", headers: [("Via", "1.1 portal")]) }
        #expect(!NetworkInsights.proxy(pages))
    }

    @Test func partialCarriesTheHTTPSError() throws {
        let evidence = ["apple", "google", "firefox"].map { F.correct($0) }
            + [F.answer("google-https", status: nil, address: nil, error: .tls,
                        message: "SSL certificate problem: unable to get local issuer certificate")]
        let report = F.report(evidence)
        #expect(report.verdict == .online && report.partial == true)
        let expected = "google-https: tls: SSL certificate problem: unable to get local issuer certificate"
        #expect(report.partialError == expected)
        #expect(try Self.json(report)["partial_error"] as? String == expected)
        #expect(TextFormatter.format(report).contains("partial: HTTP works but HTTPS failed (\(expected))"))
        let fine = F.report(Self.all.map { F.correct($0) })
        #expect(fine.partial == false && fine.partialError == nil)
    }

    @Test func capportSessionLimitsEvenWhenOnline() throws {
        var capport = F.capport(captive: false, seconds: 3725)
        capport.answer?.bytesRemaining = 1_500_000
        capport.answer?.venueInfoURL = "http://venue.portal.test/"
        let report = F.report(Self.all.map { F.correct($0) }, capport: capport)
        #expect(report.verdict == .online && report.portal == nil)
        let api = try #require(try Self.json(report)["capport"] as? [String: Any])
        #expect(api["captive"] as? Bool == false && api["seconds_remaining"] as? Int == 3725)
        #expect(api["bytes_remaining"] as? Int == 1_500_000 && api["state"] as? String == "answered")
        #expect(api["source"] as? String == "systemd-networkd" && api["interface"] as? String == "eth0")
        let text = TextFormatter.format(report)
        #expect(text.contains("captive portal API: not captive, 1 h 02 min left, 1.5 MB left, venue info: http://venue.portal.test/"))
        let metrics = PrometheusFormatter.format(report)
        #expect(metrics.contains("netprobe_portal_seconds_remaining 3725\n"))
        #expect(metrics.contains("netprobe_portal_bytes_remaining 1500000\n"))
        #expect(metrics.contains("netprobe_capport_captive 0\n"))
        #expect(!PrometheusFormatter.format(F.report(Self.all.map { F.correct($0) })).contains("seconds_remaining"))
    }

    @Test func captiveAPIPortalInEveryFormat() throws {
        let report = F.report(Self.all.map { F.correct($0) }, capport: F.capport(captive: true, portal: "https://login.portal.test/p"))
        #expect(report.verdict == .portal && report.reason.rawValue == "capport-captive")
        let portal = try #require(try Self.json(report)["portal"] as? [String: Any])
        #expect(portal["url"] as? String == "https://login.portal.test/p" && portal["source"] as? String == "capport")
        #expect(portal["probe"] is NSNull && portal["wispr"] is NSNull && portal["login_url"] is NSNull)
        let text = TextFormatter.format(report)
        #expect(text.hasPrefix("portal  capport-captive: "))
        #expect(text.contains("log in at: https://login.portal.test/p  (from capport)"))
        #expect(text.contains("captive portal API: captive (https://capport.portal.test/api from systemd-networkd on eth0)"))
        #expect(PrometheusFormatter.format(report).contains(#"netprobe_portal_info{host="login.portal.test",source="capport"} 1"#))
    }

    /// Names and URLs from the network reach the terminal escaped.
    @Test func networkStringsAreEscapedInText() throws {
        let page = F.wisprPage.replacingOccurrences(of: "Lab Cafe", with: "Cafe \u{1B}]0;owned\u{07}\u{202E}")
        var capport = F.capport(captive: false)
        capport.uri = "https://capport.portal.test/\u{1B}[2J"
        let report = F.report(["apple", "firefox"].map { F.answer($0, status: 200, body: page) }, capport: capport)
        #expect(report.portal?.locationName == "Cafe \u{1B}]0;owned\u{07}\u{202E}")
        let text = TextFormatter.format(report)
        #expect(text.contains("venue: Cafe \\x1b]0;owned\\x07\\u{202e}"))
        #expect(text.contains("https://capport.portal.test/\\x1b[2J"))
        #expect(!text.unicodeScalars.contains { ($0.value < 0x20 && $0 != "\n") || $0.value == 0x202E })
    }

    @Test func wisprPortalInJSONAndText() throws {
        let report = F.report(["apple", "firefox"].map { F.answer($0, status: 200, body: F.wisprPage) })
        let portal = try #require(try Self.json(report)["portal"] as? [String: Any])
        #expect(portal["url"] as? String == "http://captive.apple.com/wispr/login?x=1&y=2")
        #expect(portal["source"] as? String == "wispr" && portal["location_name"] as? String == "Lab Cafe")
        #expect(portal["login_url"] as? String == "http://captive.apple.com/wispr/login?x=1&y=2")
        let wispr = try #require(portal["wispr"] as? [String: Any])
        #expect(wispr["message_type"] as? Int == 100 && wispr["response_code"] as? Int == 0)
        #expect(wispr["login_url"] as? String == "/wispr/login?x=1&y=2" && wispr["abort_login_url"] is NSNull)
        #expect(TextFormatter.format(report).contains("  venue: Lab Cafe"))
    }

    @Test func dnsHijackInJSON() throws {
        let report = F.report(Self.all.map { F.answer($0, status: 200, body: "<html>Login</html>", address: "10.1.0.1") })
        let json = try Self.json(report)
        #expect(json["reason"] as? String == "dns-hijack" && json["dns_hijack"] as? Bool == true)
        let probes = try #require(json["probes"] as? [[String: Any]])
        #expect(probes.allSatisfy { $0["dns_hijack"] as? Bool == true })
        #expect((json["portal"] as? [String: Any])?["url"] as? String == "http://10.1.0.1/")
        #expect(TextFormatter.format(report).contains("dns hijack: probe host names resolved to private or reserved addresses"))
    }

    /// Every shape the new keys can take validates against the shipped (strict) schema.
    @Test func reportsValidateAgainstTheSchema() throws {
        var failedAPI = F.capport(captive: false)
        failedAPI.state = .failed
        failedAPI.answer = nil
        failedAPI.error = "HTTP status 404, expected 200"
        let unrestricted = CapportReport(uri: CapportReport.unrestrictedURI, source: "dhcpcd", interface: "wlan0", state: .unrestricted)
        let reports = [
            F.report(Self.all.map { F.correct($0, headers: [("Via", "1.1 proxy")]) }, capport: F.capport(captive: false, seconds: 60)),
            F.report(["apple", "firefox"].map { F.answer($0, status: 200, body: F.wisprPage) }, capport: failedAPI),
            F.report(Self.all.map { F.answer($0, status: 200, body: "x", address: "10.1.0.1") }, capport: unrestricted),
            F.report(Self.all.map { F.correct($0) }, capport: F.capport(captive: true, portal: "https://login.portal.test/")),
            F.report(["apple", "google"].map { F.correct($0) } + [F.answer("google-https", status: nil, address: nil, error: .tls)]),
        ]
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("netprobe-portal-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("reports.jsonl")
        try reports.map { JSONFormatter.format($0) }.joined(separator: "\n").write(to: file, atomically: true, encoding: .utf8)
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let process = Process()
        // The script's own interpreter (env python3), as the rest of the test suite runs it.
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", root.appendingPathComponent("scripts/validate-json").path,
                             root.appendingPathComponent("schemas/report.schema.json").path, file.path, "--lines"]
        // A file, not a pipe: reading a pipe can be interrupted by the signals Process itself uses.
        let log = directory.appendingPathComponent("errors.txt")
        _ = FileManager.default.createFile(atPath: log.path, contents: nil)
        process.standardError = try FileHandle(forWritingTo: log)
        try process.run()
        process.waitUntilExit()
        let output = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
        #expect(process.terminationStatus == 0, "\(output)")
    }
}
