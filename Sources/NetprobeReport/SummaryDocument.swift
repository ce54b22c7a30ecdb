import NetprobeWire
import NetprobeVerdict
import NetprobeOutput
/// `netprobe report --format json`: one object, described by schemas/summary.schema.json.
/// Every key is always present (null when unknown), as in the reports.
public enum SummaryDocument {
    public static let schemaVersion = 1

    public static func format(_ summary: WatchSummary, pretty: Bool = false) -> String {
        json(summary).rendered(pretty: pretty)
    }

    static func json(_ summary: WatchSummary) -> JSONOut {
        .object([
            "dropped_operator_samples": .int(summary.droppedOperators),
            "dropped_network_records": .int(summary.droppedNetworks),
            "dropped_path_mentions": .int(summary.droppedPaths),
            "first": time(summary.first),
            "last": time(summary.last),
            "late": .int(summary.late),
            "latency": .array(summary.latency.map { series in
                .object([
                    "avg_ms": .number(series.total.average.map(rounded)),
                    "bucket_ms": .int(Int(series.buckets.width)),
                    "buckets": .int(series.buckets.cells.count),
                    "max_ms": .number(series.total.count > 0 ? rounded(series.total.max) : nil),
                    "min_ms": .number(series.total.count > 0 ? rounded(series.total.min) : nil),
                    "operator": .string(series.name),
                    "samples": .int(series.total.count),
                ])
            }),
            "lines": .int(summary.lines),
            "live": .bool(summary.live),
            "lost_runs": .int(summary.lostRuns),
            "not_observed_ms": .int(Int(summary.notObserved)),
            "unproven_gaps": .int(summary.unproven),
            "now": time(summary.now),
            "malformed": .int(summary.malformed),
            "networks": .array(summary.networks.map(network)),
            "paths": .array(summary.trackers.map(path)),
            "records": .int(summary.records),
            "reorder_window": .int(summary.window),
            "reordered": .int(summary.reordered),
            "runs": .int(summary.runs),
            "schema_version": .int(schemaVersion),
            "span_ms": .int(Int(summary.span)),
            "stopped": .bool(summary.stopped),
            "stops": .int(summary.stops),
            "until": time(summary.until),
        ])
    }

    static func path(_ tracker: PathTracker) -> JSONOut {
        .object([
            "availability": .number(tracker.availability.map { ($0 * 1_000_000).rounded() / 1_000_000 }),
            "family": .string(tracker.key?.family?.rawValue),
            "faults": .array(tracker.faults.map {
                .object(["count": .int($0.count), "fault": .string($0.fault?.rawValue), "ms": .int(Int($0.ms))])
            }),
            "final": tracker.final.map { state(verdict: $0.verdict, reason: $0.reason) } ?? .null,
            "first": time(tracker.first),
            "interface": .string(tracker.key?.interface),
            "last": time(tracker.last),
            "observed_ms": .int(Int(tracker.observed)),
            "offline_ms": .int(Int(tracker.offline)),
            "online_ms": .int(Int(tracker.online)),
            "other_portal_urls": .int(tracker.otherPortalURLs),
            "other_reasons": .int(tracker.otherReasons),
            "outages": tally(tracker.outages),
            "portal_ms": .int(Int(tracker.portal)),
            "portal_periods": tally(tracker.portals),
            "portal_urls": .array(tracker.portalURLs.map { .object(["count": .int($0.count), "url": .string($0.url)]) }),
            "reasons": .array(tracker.reasons.map {
                .object(["count": .int($0.count), "ms": .int(Int($0.ms)), "reason": .string($0.reason), "verdict": .string($0.verdict.rawValue)])
            }),
            "scope": .string(tracker.key == nil ? "overall" : "path"),
        ])
    }

    /// One network's share of the overall answer's time.
    static func network(_ network: NetworkTracker) -> JSONOut {
        let tracker = network.tracker
        return .object([
            "availability": .number(tracker.availability.map { ($0 * 1_000_000).rounded() / 1_000_000 }),
            "first": time(tracker.first),
            "id": .string(network.id),
            "last": time(tracker.last),
            "name": .string(network.name),
            "observed_ms": .int(Int(tracker.observed)),
            "offline_ms": .int(Int(tracker.offline)),
            "online_ms": .int(Int(tracker.online)),
            "outages": .int(tracker.outages.count),
            "portal_ms": .int(Int(tracker.portal)),
            "portal_periods": .int(tracker.portals.count),
        ])
    }

    static func tally(_ tally: PathTracker.Tally) -> JSONOut {
        .object([
            "count": .int(tally.count),
            "longest": tally.longest.map(period) ?? .null,
            "total_ms": .int(Int(tally.totalMs)),
        ])
    }

    static func period(_ period: PathTracker.Period) -> JSONOut {
        .object([
            "duration_ms": .int(Int(period.duration)),
            "end": time(period.end),
            "fault": .string(period.fault?.rawValue),
            "ongoing": .bool(period.ongoing),
            "reasons": .strings(period.reasons),
            "start": time(period.start),
        ])
    }

    static func state(verdict: Verdict, reason: String) -> JSONOut {
        .object(["reason": .string(reason), "verdict": .string(verdict.rawValue)])
    }

    static func time(_ ms: Int64?) -> JSONOut { .string(ms.map(SummaryText.timestamp)) }

    static func rounded(_ ms: Double) -> Double { (ms * 10).rounded() / 10 }
}
