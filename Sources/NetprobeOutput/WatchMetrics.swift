#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import NetprobeWire
import NetprobeVerdict

/// What a running `watch` adds to the Prometheus exposition of its reported state
/// (`watch --textfile`): how much it has done, when it last looked, and when the portal
/// session ends.
public struct WatchCounters: Sendable, Equatable {
    /// Checks run since start.
    public var checks = 0
    /// Change records reported since start (the start record is not a change).
    public var changes = 0
    /// When the last check started (wall clock).
    public var lastCheck: Date?
    /// When the open portal session ends, while one is known.
    public var sessionEnd: Date?
    /// Times the machine's own TCP traffic suggested the verdict's path stalled (each a re-check).
    public var stallSuspected = 0
    /// Lean re-checks that confirmed the state (`Report.lean`), among `checks`.
    public var leanChecks = 0
    /// Bytes every check has sent and received, per probe name (the API and DNS under their own names).
    public var bytesByProbe: [String: (sent: Int, received: Int)] = [:]

    public init() {}

    public static func == (lhs: WatchCounters, rhs: WatchCounters) -> Bool {
        lhs.checks == rhs.checks && lhs.changes == rhs.changes && lhs.lastCheck == rhs.lastCheck && lhs.sessionEnd == rhs.sessionEnd
            && lhs.stallSuspected == rhs.stallSuspected && lhs.leanChecks == rhs.leanChecks
            && lhs.bytesByProbe.mapValues { [$0.sent, $0.received] } == rhs.bytesByProbe.mapValues { [$0.sent, $0.received] }
    }

    /// Adds a check's traffic to the totals.
    public mutating func count(bytes: [String: (sent: Int, received: Int)]) {
        for (probe, moved) in bytes {
            let before = bytesByProbe[probe] ?? (0, 0)
            bytesByProbe[probe] = (before.sent + moved.sent, before.received + moved.received)
        }
    }
}

extension PrometheusFormatter {
    /// The `--format prometheus` series of `report` (the state watch last reported), then watch's own.
    public static func format(_ report: Report, watch counters: WatchCounters) -> String {
        var out = MetricWriter()
        out.text = format(report)
        out.counter("netprobe_checks_total", "Checks run since watch started.", [([], Double(counters.checks))])
        out.counter("netprobe_lean_checks_total",
                    "Checks that were lean re-checks: two operators confirmed what full checks proved on this network.",
                    [([], Double(counters.leanChecks))])
        out.counter("netprobe_changes_total", "Changes reported since watch started.", [([], Double(counters.changes))])
        out.counter("netprobe_stall_suspected_total",
                    "Times the machine's own TCP traffic on the verdict's path stalled, and watch re-checked at once.",
                    [([], Double(counters.stallSuspected))])
        if let last = counters.lastCheck {
            out.gauge("netprobe_last_check_timestamp_seconds", "When the last check started (Unix time).",
                      [([], seconds(last))])
        }
        if let end = counters.sessionEnd {
            out.gauge("netprobe_portal_session_expiry_timestamp_seconds",
                      "When the open Captive Portal API session ends (Unix time), from its seconds-remaining.", [([], seconds(end))])
        }
        let probes = counters.bytesByProbe.keys.sorted()
        out.counter("netprobe_probe_bytes_total", "Bytes each probe (and the DNS and API traffic) sent and received since watch started.",
                    probes.flatMap { probe in
                        [([("probe", probe), ("direction", "sent")], Double(counters.bytesByProbe[probe]?.sent ?? 0)),
                         ([("probe", probe), ("direction", "received")], Double(counters.bytesByProbe[probe]?.received ?? 0))]
                    })
        return out.text
    }

    /// Whole seconds: a textfile collector's scrape is far coarser, and integers compare exactly in tests.
    private static func seconds(_ date: Date) -> Double {
        date.timeIntervalSince1970.rounded(.down)
    }
}
