#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Glibc
import NetprobeCore
import NetprobeKit

/// One line of `watch` output: the start record, or a change.
///
/// A change is a different verdict, a different reason, or a different portal
/// login URL (a new portal is news even when the verdict stays "portal").
/// Evidence that moves without changing those (timings, which probe answered
/// first) is not a change: watch reports states, not measurements.
struct WatchRecord {
    enum Event: String {
        case start, change
    }

    let event: Event
    let report: Report
    let previous: Report?
    /// Of "verdict", "reason", "portal_url"; empty for the start record.
    let changed: [String]
    /// The interface the probes left through (empty when the path was down).
    var interface: String {
        report.answer.families.isEmpty ? "" : report.answer.interface ?? ""
    }

    /// The record `current` calls for after `previous`, or nil when nothing changed.
    static func after(_ previous: Report?, _ current: Report) -> WatchRecord? {
        guard let previous else { return WatchRecord(event: .start, report: current, previous: nil, changed: []) }
        var changed: [String] = []
        if previous.verdict != current.verdict { changed.append("verdict") }
        if previous.reason != current.reason { changed.append("reason") }
        if previous.portal?.url != current.portal?.url { changed.append("portal_url") }
        if changed.isEmpty { return nil }
        return WatchRecord(event: .change, report: current, previous: previous, changed: changed)
    }

    /// The report object (schema_version 1) with "event", "previous",
    /// "previous_reason" and "changed" added, on one line.
    var json: String {
        let report = JSONFormatter.format(self.report)
        precondition(report.hasPrefix("{"), "a report is a JSON object")
        let extra = "\"changed\":\(Self.encode(changed)),\"event\":\(Self.encode(event.rawValue)),"
            + "\"previous\":\(previous.map { Self.encode($0.verdict.rawValue) } ?? "null"),"
            + "\"previous_reason\":\(previous.map { Self.encode($0.reason.rawValue) } ?? "null")"
        let body = report.dropFirst()
        return "{" + extra + (body.hasPrefix("}") ? "" : ",") + body
    }

    /// `2026-11-22T10:00:00Z online probes-validated (was offline: no-default-route)`
    var text: String {
        var line = "\(Self.timestamp(report.timestamp)) \(report.verdict.rawValue) \(report.reason.rawValue)"
        if report.verdict == .portal {
            line += " login " + (report.portal?.url.map { TerminalText.escape($0, limit: 300) } ?? "unknown")
        }
        if let previous {
            line += " (was \(previous.verdict.rawValue): \(previous.reason.rawValue))"
        } else {
            line += " (start)"
        }
        return line
    }

    /// What a --exec hook finds in its environment.
    var environment: [String: String] {
        [
            "NETPROBE_EVENT": event.rawValue,
            "NETPROBE_VERDICT": report.verdict.rawValue,
            "NETPROBE_PREVIOUS": previous?.verdict.rawValue ?? "",
            "NETPROBE_REASON": report.reason.rawValue,
            "NETPROBE_PREVIOUS_REASON": previous?.reason.rawValue ?? "",
            "NETPROBE_PORTAL_URL": report.portal?.url ?? "",
            "NETPROBE_INTERFACE": interface,
        ]
    }

    private static func encode(_ value: some Encodable) -> String {
        // Strings and string arrays always encode.
        (try? JSONEncoder().encode(value)).map { String(decoding: $0, as: UTF8.self) } ?? "null"
    }

    private static func timestamp(_ date: Date) -> String {
        Timestamp.iso8601(date, fractional: false)
    }
}

/// Records go to stdout with write(2), so a reader that went away is an error
/// we see (EPIPE, with SIGPIPE ignored), not a crash or a silent loss.
enum RecordOutput {
    /// False when stdout is gone: the caller ends quietly.
    static func write(_ line: String) -> Bool {
        FileOutput.write(line + "\n", to: STDOUT_FILENO)
    }
}
