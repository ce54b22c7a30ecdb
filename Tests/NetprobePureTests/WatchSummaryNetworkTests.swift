@testable import NetprobeWire
@testable import NetprobeVerdict
@testable import NetprobeReport
import Testing

/// `netprobe report` splits the overall answer's time by the network each record names
/// (`network.id`): a laptop's home hours and its hotel's portal hours are told apart.
@Suite("report: time by network")
struct WatchSummaryNetworkTests {
    static let home = #""network":{"id":"aaaaaaaaaaaa","ssid":null,"domain":"home.example","gateway_mac":"02:00:00:00:00:01","dhcp_server":"198.51.100.1"}"#
    static let hotel = #""network":{"id":"bbbbbbbbbbbb","ssid":"Hotel Guest","domain":null,"gateway_mac":"02:00:00:00:00:02","dhcp_server":null}"#
    static let unnamed = #""network":{"id":"cccccccccccc","ssid":null,"domain":null,"gateway_mac":"02:00:00:00:00:03","dhcp_server":null}"#

    private func line(_ minute: Int, _ event: String, _ verdict: String, _ reason: String, network: String?) -> String {
        let stamp = "2026-03-02T00:\(minute < 10 ? "0" : "")\(minute):00Z"
        return "{\"event\":\"\(event)\",\"timestamp\":\"\(stamp)\",\"verdict\":\"\(verdict)\",\"reason\":\"\(reason)\",\"portal\":null"
            + (network.map { "," + $0 } ?? "") + "}"
    }

    private func summarise(_ lines: [String]) -> WatchSummary {
        WatchLogFixture.summarise(lines).summary
    }

    @Test func timeIsSplitBetweenTheNetworksTheRecordsName() throws {
        let summary = summarise([
            line(0, "start", "online", "probes-validated", network: Self.home),
            line(10, "change", "offline", "timeout", network: Self.home),       // an outage at home
            line(12, "change", "online", "probes-validated", network: Self.home),
            line(20, "change", "offline", "no-default-route", network: nil),    // carrier off: no network
            line(21, "change", "portal", "http-redirect", network: Self.hotel), // the hotel
            line(26, "change", "online", "probes-validated", network: Self.hotel),
            line(30, "change", "online", "probes-validated", network: Self.home), // back home, still online
            line(40, "stop", "online", "probes-validated", network: Self.home),
        ])
        #expect(summary.networks.map(\.id) == ["aaaaaaaaaaaa", "bbbbbbbbbbbb"])
        let home = try #require(summary.networks.first { $0.id == "aaaaaaaaaaaa" })
        let hotel = try #require(summary.networks.first { $0.id == "bbbbbbbbbbbb" })
        #expect(home.name == "home.example")
        #expect(hotel.name == "Hotel Guest")
        #expect(home.tracker.observed == 30 * 60_000)
        #expect(home.tracker.online == 28 * 60_000)
        #expect(home.tracker.offline == 2 * 60_000)
        #expect(home.tracker.outages.count == 1)
        #expect(hotel.tracker.observed == 9 * 60_000)
        #expect(hotel.tracker.portal == 5 * 60_000)
        #expect(hotel.tracker.online == 4 * 60_000)
        #expect(hotel.tracker.outages.count == 0)
        // The minute without a network is the overall answer's, no network's.
        #expect(try #require(summary.overall).observed == 40 * 60_000)

        let json = SummaryDocument.format(summary)
        #expect(json.contains(#"{"availability":0.933333,"first":"2026-03-02T00:00:00Z","id":"aaaaaaaaaaaa","last":"2026-03-02T00:40:00Z","name":"home.example","observed_ms":1800000,"offline_ms":120000,"online_ms":1680000,"outages":1,"portal_ms":0,"portal_periods":0}"#))
        #expect(json.contains(#""id":"bbbbbbbbbbbb","last":"2026-03-02T00:30:00Z","name":"Hotel Guest","observed_ms":540000,"offline_ms":0,"online_ms":240000,"outages":0,"portal_ms":300000,"portal_periods":1}"#))
        let text = SummaryText.format(summary)
        #expect(text.contains("by network"))
        #expect(text.contains("Hotel Guest") && text.contains("home.example"))
        let html = SummaryHTML.format(summary)
        #expect(html.contains("<td>Hotel Guest</td><td>bbbbbbbbbbbb</td>"))
    }

    /// A network known only by its gateway is named after it; older records without `network`
    /// count for none, and the report reads them as before.
    @Test func namesFallBackAndOlderRecordsCountForNoNetwork() throws {
        let summary = summarise([
            line(0, "start", "online", "probes-validated", network: nil),
            line(5, "change", "online", "probes-validated", network: Self.unnamed),
            line(9, "stop", "online", "probes-validated", network: Self.unnamed),
        ])
        let only = try #require(summary.networks.first)
        #expect(summary.networks.count == 1)
        #expect(only.name == "02:00:00:00:00:03")
        #expect(only.tracker.observed == 4 * 60_000)
        #expect(try #require(summary.overall).observed == 9 * 60_000)
        #expect(SummaryDocument.format(summarise([line(0, "start", "online", "probes-validated", network: nil)]))
            .contains(#""networks":[]"#))
    }

    /// A hostile log cannot grow the table: networks beyond the cap are counted, not kept; a
    /// name that is no string, or too long, is not taken.
    @Test func networksAreBounded() {
        var lines: [String] = []
        for index in 0..<(WatchSummarizer.networkLimit + 5) {
            let id = String(repeating: "0", count: 8) + String(1000 + index)
            lines.append(line(index % 60, "change", "online", "probes-validated",
                              network: "\"network\":{\"id\":\"\(id)\",\"domain\":\"\(String(repeating: "x", count: 300))\"}"))
        }
        let summary = summarise(lines)
        #expect(summary.networks.count == WatchSummarizer.networkLimit)
        #expect(summary.droppedNetworks == 5)
        #expect(summary.networks.allSatisfy { $0.name == $0.id })
    }

    /// A log is as hostile as whoever wrote it: an id and a name with terminal controls and
    /// markup reach no terminal or page unescaped.
    @Test func hostileIdsAndNamesAreEscaped() {
        let hostile = #""network":{"id":"\u001b[31m<script>","ssid":"\u001b]0;owned\u0007<b>x</b>"}"#
        let summary = summarise([line(0, "start", "online", "probes-validated", network: hostile),
                                 line(3, "stop", "online", "probes-validated", network: hostile)])
        #expect(summary.networks.count == 1)
        let text = SummaryText.format(summary)
        #expect(!text.unicodeScalars.contains { $0.value == 0x1B || $0.value == 0x07 })
        let html = SummaryHTML.format(summary)
        #expect(!html.contains("<script") && !html.contains("<b>x"))
    }
}
