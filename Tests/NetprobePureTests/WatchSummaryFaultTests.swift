@testable import NetprobeWire
@testable import NetprobeVerdict
@testable import NetprobeReport
import Testing

/// `netprobe report` counts outages by the hop that failed: the first fault an outage's records
/// name, none when they name none (an older watch, or evidence that did not tell).
@Suite("report: outages by fault")
struct WatchSummaryFaultTests {
    private func line(_ minute: Int, _ verdict: String, _ reason: String, fault: String?) -> String {
        let stamp = "2026-03-02T00:\(minute < 10 ? "0" : "")\(minute):00Z"
        let named = fault.map { ",\"fault\":\"\($0)\",\"fault_detail\":\"x\"" } ?? ""
        return "{\"event\":\"change\",\"timestamp\":\"\(stamp)\",\"verdict\":\"\(verdict)\",\"reason\":\"\(reason)\",\"portal\":null\(named)}"
    }

    private func summarise(_ lines: [String]) -> WatchSummary {
        WatchLogFixture.summarise(lines).summary
    }

    @Test func outagesAreCountedByTheirFirstNamedFault() throws {
        let summary = summarise([
            line(0, "online", "probes-validated", fault: nil),
            line(1, "offline", "timeout", fault: "gateway"),
            line(3, "offline", "dns-failed", fault: "dns"),   // the same outage: still gateway's
            line(4, "online", "probes-validated", fault: nil),
            line(5, "offline", "timeout", fault: nil),        // none named, then upstream
            line(6, "offline", "connect-failed", fault: "upstream"),
            line(8, "online", "probes-validated", fault: nil),
            line(9, "offline", "no-link", fault: "link"),
            line(10, "offline", "dns-failed", fault: "the-moon"),  // a newer writer's value: none
            line(11, "online", "probes-validated", fault: nil),
            line(12, "offline", "timeout", fault: "gateway"),
            line(13, "online", "probes-validated", fault: nil),
        ])
        let overall = try #require(summary.overall)
        #expect(overall.outages.count == 4)
        let byFault = overall.faults.map { "\($0.fault?.rawValue ?? "none") \($0.count) \($0.ms / 60_000)" }
        #expect(byFault == ["gateway 2 4", "upstream 1 3", "link 1 2"])
        #expect(overall.outages.longest?.fault == .gateway)

        let json = SummaryDocument.format(summary)
        #expect(json.contains(#""faults":[{"count":2,"fault":"gateway","ms":240000}"#))
        let text = SummaryText.format(summary)
        #expect(text.contains("outages by fault"))
        #expect(text.contains("gateway") && text.contains("upstream"))
    }

    @Test func outagesWithoutAFaultAreCountedAsNone() throws {
        let summary = summarise([line(0, "offline", "timeout", fault: nil), line(2, "online", "probes-validated", fault: nil)])
        let overall = try #require(summary.overall)
        #expect(overall.faults == [PathTracker.FaultTally(fault: nil, count: 1, ms: 120_000)])
        #expect(SummaryDocument.format(summary).contains(#""faults":[{"count":1,"fault":null,"ms":120000}]"#))
    }
}
