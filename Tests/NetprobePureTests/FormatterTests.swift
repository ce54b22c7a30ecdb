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

@Suite struct TextFormatterTests {
    @Test func networkTextCannotDriveTheTerminal() {
        let text = TextFormatter.format(ReportFixtures.report())
        #expect(!containsControl(text, allowingNewlines: true), "\(text.debugDescription)")
        // The escapes are shown, not dropped: a person can see what the portal sent.
        #expect(text.contains("\\x1b[2J"))
        #expect(text.contains("\\x1b[31mby peer"))
        #expect(text.contains("\\r\\nFAKE: online"))
        // A forged line must not appear as a line of its own.
        #expect(!text.split(separator: "\n").contains { $0.hasPrefix("FAKE") })
    }

    @Test func verdictLineComesFirst() {
        let lines = TextFormatter.format(ReportFixtures.report()).split(separator: "\n")
        #expect(lines.first?.hasPrefix("portal  http-redirect: ") == true)
        #expect(lines.contains { $0.contains("log in at: http://portal.example/login") })
        #expect(lines.contains { $0.contains("skipped") && $0.contains("microsoft") })
    }

    /// A DHCPINFORM that found no API gets one line saying why, escaped like any network text.
    @Test func aDHCPINFORMWithoutAnAPIIsOneLine() {
        var report = ReportFixtures.report()
        report.paths[0].inform = DHCPInformReport(interface: "eth0", clientAddress: "198.51.100.2", state: .notPermitted,
                                                  error: "bind 198.51.100.2:68: Permission denied\u{1B}[2J")
        let lines = TextFormatter.format(report).split(separator: "\n")
        let line = lines.first { $0.contains("DHCPINFORM") }
        #expect(line == "  DHCPINFORM on eth0: not-permitted (bind 198.51.100.2:68: Permission denied\\x1b[2J)")
        report.paths[0].inform?.captivePortal = "https://capport.example/"
        #expect(!TextFormatter.format(report).contains("DHCPINFORM"), "an API found is shown as the API")
        report.paths[0].inform = DHCPInformReport(interface: "eth0", clientAddress: "198.51.100.2", state: .staticAddress,
                                                  error: "not sent: eth0's IPv4 address is static, not leased")
        #expect(!TextFormatter.format(report).contains("DHCPINFORM"), "a static network is ordinary: the JSON says it")
    }

    @Test func noColourWithoutAPalette() {
        let text = TextFormatter.format(ReportFixtures.report(portal: nil, verdict: .offline, reason: .timeout))
        #expect(!text.contains("\u{1B}"))
        #expect(text.hasPrefix("offline  timeout: "))
    }

    /// An offline verdict that names its failed hop says so first, in plain words, escaped.
    @Test func theFailedHopLeadsTheText() {
        var report = ReportFixtures.report(portal: nil, verdict: .offline, reason: .timeout)
        report.paths[report.overall].fault = FaultFinding(.gateway, detail: "router 198.51.100.1 on eth0: neighbour failed",
                                                          summary: "the router 198.51.100.1\u{1B}[2J does not answer")
        let lines = TextFormatter.format(report).split(separator: "\n").map(String.init)
        #expect(lines.first?.hasPrefix("offline: the router 198.51.100.1") == true)
        #expect(lines.first?.hasSuffix(" does not answer (timeout)") == true)
        #expect(lines.dropFirst().first == "  fault gateway: router 198.51.100.1 on eth0: neighbour failed")
        #expect(!lines.joined().contains("\u{1B}"))
    }
}

@Suite struct JSONFormatterTests {
    @Test(arguments: [false, true])
    func parsesAndHasEveryContractKey(_ pretty: Bool) throws {
        let json = try ReportFixtures.parse(JSONFormatter.format(ReportFixtures.report(), pretty: pretty))
        for key in ["schema_version", "verdict", "reason", "portal", "partial", "duration_ms", "timestamp", "quorum",
                    "interfaces", "default_routes", "dns", "probes"] {
            #expect(json.keys.contains(key), "missing \(key)")
        }
        #expect(json["schema_version"] as? Int == 1)
        #expect(json["verdict"] as? String == "portal")
        #expect(json["reason"] as? String == "http-redirect")
        #expect(json["partial"] is NSNull)
        #expect(json["duration_ms"] as? Double == 123.5)
        let quorum = try #require(json["quorum"] as? [String: Any])
        #expect(quorum["required"] as? Int == 2 && quorum["success"] as? Int == 1 && quorum["portal"] as? Int == 1)
        let portal = try #require(json["portal"] as? [String: Any])
        #expect(portal["url"] as? String == ReportFixtures.filteredLocation)
        #expect(portal["source"] as? String == "redirect" && portal["probe"] as? String == "apple" && portal["status"] as? Int == 302)

        let interfaces = try #require(json["interfaces"] as? [[String: Any]])
        #expect(interfaces.map { $0["name"] as? String } == ["lo", "eth0"])
        #expect(interfaces.allSatisfy { $0["type"] is String && $0["up"] is Bool })

        let probes = try #require(json["probes"] as? [[String: Any]])
        #expect(probes.map { $0["name"] as? String } == ["apple", "google", "firefox", "microsoft"])
        #expect(probes.map { $0["outcome"] as? String } == ["portal", "failure", "success", "skipped"])
        let probeKeys = ["name", "url", "operator", "outcome", "error_class", "status", "body_matched", "body_bytes",
                         "body_truncated", "headers", "remote_address", "timings", "error", "skip_reason"]
        for probe in probes {
            for key in probeKeys { #expect(probe.keys.contains(key), "probe lacks \(key)") }
            #expect(probe["url"] is String)
        }
        let apple = probes[0]
        #expect(apple["error_class"] as? String == "redirect" && apple["status"] as? Int == 302)
        let headers = try #require(apple["headers"] as? [String: Any])
        #expect(headers["location"] as? String == ReportFixtures.filteredLocation)
        #expect(headers["content_type"] as? String == "text/html")
        #expect(Set(headers.keys) == ["location", "content_type", "content_length", "via"])
        let timings = try #require(apple["timings"] as? [String: Any])
        #expect(Set(timings.keys) == ["dns_ms", "connect_ms", "tls_ms", "first_byte_ms", "total_ms"])
        #expect(probes[1]["error_class"] as? String == "reset")
        #expect(probes[1]["error"] as? String == ReportFixtures.filteredError)
        #expect(probes[2]["error_class"] is NSNull && probes[2]["body_matched"] as? Bool == true)
        #expect(probes[3]["skip_reason"] as? String == "decided" && probes[3]["error_class"] is NSNull)
    }

    @Test func controlCharactersAreEscapedInStrings() {
        let json = JSONFormatter.format(ReportFixtures.report())
        #expect(!json.unicodeScalars.contains { $0.value < 0x20 }, "raw C0 control in JSON output")
        #expect(!json.contains("\n"), "compact JSON is one line (JSON Lines for watch)")
        // Network strings are filtered before encoding: no C0 or C1 control survives even as an escape.
        #expect(!json.contains("\\u001b") && !json.contains("\\u001B"))
        #expect(!json.unicodeScalars.contains { (0x7F...0x9F).contains($0.value) }, "raw DEL or C1 control in JSON output")
        #expect(json.contains("\u{FFFD}[2J"))
    }

    @Test func portalIsNullWhenThereIsNone() throws {
        let json = try ReportFixtures.parse(JSONFormatter.format(ReportFixtures.report(portal: nil, verdict: .online,
                                                                                       reason: .probesValidated)))
        #expect(json["portal"] is NSNull)
        #expect(json["verdict"] as? String == "online")
    }

    @Test func portalWithUnknownURLKeepsTheKey() throws {
        let info = PortalInfo(url: nil, source: nil, probe: "microsoft", status: 200)
        let json = try ReportFixtures.parse(JSONFormatter.format(ReportFixtures.report(portal: info, reason: .wrongContent)))
        let portal = try #require(json["portal"] as? [String: Any])
        #expect(portal["url"] is NSNull)
        #expect(portal["probe"] as? String == "microsoft")
    }

    @Test func pathDocument() throws {
        let json = try ReportFixtures.parse(JSONFormatter.format(ReportFixtures.path))
        #expect(json["schema_version"] as? Int == 1)
        #expect((json["interfaces"] as? [[String: Any]])?.count == 2)
        let route = try #require((json["default_routes"] as? [[String: Any]])?.first)
        #expect(route["gateway"] as? String == "198.51.100.1" && route["interface_index"] as? Int == 2)
    }
}

@Suite struct ExitCodeTests {
    @Test(arguments: [(Verdict.online, Int32(0)), (.offline, 1), (.portal, 2)])
    func exitCode(_ verdict: Verdict, _ code: Int32) {
        #expect(ReportFixtures.report(verdict: verdict).exitCode == code)
    }
}

@Suite struct WireBytesOutputTests {
    static func report() -> Report {
        var report = ReportFixtures.report()
        report.wire = WireBytes(tcpSent: 2900, tcpReceived: 4100, dnsSent: 60, dnsReceived: 140)
        return report
    }

    @Test func jsonHasTheWireFiguresBesideTheHTTPOnes() throws {
        let json = try ReportFixtures.parse(JSONFormatter.format(Self.report(), pretty: false))
        let bytes = try #require(json["bytes"] as? [String: Any])
        #expect(bytes["sent"] as? Int == Self.report().bytesMoved.sent, "the HTTP-level figures stay as they are")
        let wire = try #require(bytes["wire"] as? [String: Any])
        #expect(wire["sent"] as? Int == 2960 && wire["received"] as? Int == 4240)
        #expect(wire["tcp_sent"] as? Int == 2900 && wire["tcp_received"] as? Int == 4100)
        #expect(wire["dns_sent"] as? Int == 60 && wire["dns_received"] as? Int == 140)
    }

    @Test func prometheusHasTheCheckBytesInBothExpositions() {
        let expected = ["netprobe_check_bytes{direction=\"sent\"} 2960", "netprobe_check_bytes{direction=\"received\"} 4240"]
        for text in [PrometheusFormatter.format(Self.report()), PrometheusFormatter.format(Self.report(), watch: WatchCounters())] {
            let lines = text.split(separator: "\n").map(String.init)
            for line in expected { #expect(lines.contains(line), "\(text)") }
            #expect(lines.contains("# TYPE netprobe_check_bytes gauge"))
        }
    }

    @Test func readingsSubtract() {
        let before = WireBytes(tcpSent: 10, tcpReceived: 20, dnsSent: 30, dnsReceived: 40)
        let after = WireBytes(tcpSent: 15, tcpReceived: 27, dnsSent: 30, dnsReceived: 50)
        #expect(after - before == WireBytes(tcpSent: 5, tcpReceived: 7, dnsSent: 0, dnsReceived: 10))
    }
}

@Test func prometheusLabelValuesAreEscaped() {
    #expect(MetricWriter.escape("a\"b\\c") == #"a\"b\\c"#)
    // Controls from the network (a newline included) are filtered before the writer's escaping.
    #expect(MetricWriter.escape("a\nb\u{1B}[2J\u{9B}c") == "a\u{FFFD}b\u{FFFD}[2J\u{FFFD}c")
    #expect(MetricWriter.escape("plain") == "plain")
}

/// `fault` and `fault_detail` at the top and in each path; `netprobe_fault` one series a value.
@Test func theFaultIsInJSONAndPrometheus() throws {
    var report = ReportFixtures.report(portal: nil, verdict: .offline, reason: .timeout)
    let found = FaultFinding(.upstream, detail: "router 198.51.100.1 on eth0: neighbour reachable; beyond it: timeout",
                             summary: "the router 198.51.100.1 answers, but nothing beyond it does")
    report.paths[report.overall].fault = found
    let json = try ReportFixtures.parse(JSONFormatter.format(report))
    #expect(json["fault"] as? String == "upstream")
    #expect(json["fault_detail"] as? String == found.detail)
    let paths = try #require(json["paths"] as? [[String: Any]])
    #expect(paths.first?["fault"] as? String == "upstream")
    let metrics = PrometheusFormatter.format(report).split(separator: "\n").filter { $0.hasPrefix("netprobe_fault{") }
    #expect(metrics.count == Fault.allCases.count)
    #expect(metrics.filter { $0.hasSuffix(" 1") } == [#"netprobe_fault{fault="upstream"} 1"#])
    // watch's textfile carries the same series.
    #expect(PrometheusFormatter.format(report, watch: WatchCounters()).contains(#"netprobe_fault{fault="upstream"} 1"#))

    let online = try ReportFixtures.parse(JSONFormatter.format(ReportFixtures.report()))
    #expect(online["fault"] is NSNull && online["fault_detail"] is NSNull)
    #expect(!PrometheusFormatter.format(ReportFixtures.report()).contains(#"netprobe_fault{fault="upstream"} 1"#))
}

/// The HELP says what the series do: with no hop known every series is 0, none stands for "none".
@Test func theFaultHelpSaysWhatTheSeriesDo() {
    let offline = PrometheusFormatter.format(ReportFixtures.report(portal: nil, verdict: .offline, reason: .timeout))
    let lines = offline.split(separator: "\n")
    #expect(lines.filter { $0.hasPrefix("netprobe_fault{") }.allSatisfy { $0.hasSuffix(" 0") })
    #expect(lines.contains("# HELP netprobe_fault 1 for the hop that failed while offline, 0 for the others "
                           + "(all 0 when online, behind a portal, or when the evidence does not tell)."))
}

/// A watch record of an offline state tells its hook the failed hop, filtered for the environment.
@Test func theHookIsToldTheFault() throws {
    var report = ReportFixtures.report(portal: nil, verdict: .offline, reason: .timeout)
    report.paths[report.overall].fault = FaultFinding(.gateway, detail: "router 198.51.100.1 on eth0\n: neighbour failed",
                                                      summary: "the router 198.51.100.1 does not answer")
    let record = try #require(WatchRecord.after(nil, report, allPaths: false))
    #expect(record.environment["NETPROBE_FAULT"] == "gateway")
    #expect(record.environment["NETPROBE_FAULT_DETAIL"]?.hasPrefix("router 198.51.100.1 on eth0") == true)
    #expect(record.environment["NETPROBE_FAULT_DETAIL"]?.contains("\n") == false)
    #expect(record.json.contains(#""fault":"gateway""#))
    let online = try #require(WatchRecord.after(nil, ReportFixtures.report(), allPaths: false))
    #expect(online.environment["NETPROBE_FAULT"] == "" && online.environment["NETPROBE_FAULT_DETAIL"] == "")
}
