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
    /// Of "verdict", "reason", "portal_url", "paths"; empty for the start record.
    let changed: [String]
    /// With --all-paths: the paths whose verdict or reason changed, came or went.
    var changedPaths: [PathKey] = []
    /// Watching every path (--all-paths): hooks are told which path changed.
    var allPaths = false
    /// The interface the probes left through (empty when the path was down).
    var interface: String {
        report.answer.families.isEmpty ? "" : report.answer.interface ?? ""
    }

    /// The record `current` calls for after `previous`, or nil when nothing changed.
    static func after(_ previous: Report?, _ current: Report, allPaths: Bool) -> WatchRecord? {
        guard let previous else { return WatchRecord(event: .start, report: current, previous: nil, changed: [], allPaths: allPaths) }
        var changed: [String] = []
        if previous.verdict != current.verdict { changed.append("verdict") }
        if previous.reason != current.reason { changed.append("reason") }
        if previous.portal?.url != current.portal?.url { changed.append("portal_url") }
        let paths = allPaths ? pathChanges(previous, current) : []
        if !paths.isEmpty { changed.append("paths") }
        if changed.isEmpty { return nil }
        return WatchRecord(event: .change, report: current, previous: previous, changed: changed, changedPaths: paths,
                           allPaths: allPaths)
    }

    /// A path is (interface, family). Without --all-paths the one path's changes are the overall
    /// ones, already told.
    struct PathKey: Hashable {
        var interface: String?
        var family: AddressFamily?
    }

    static func pathChanges(_ previous: Report, _ current: Report) -> [PathKey] {
        func states(_ report: Report) -> [PathKey: String] {
            Dictionary(report.paths.map { (PathKey(interface: $0.interface, family: $0.family),
                                           "\($0.conclusion.verdict.rawValue) \($0.conclusion.reason.rawValue)") },
                       uniquingKeysWith: { first, _ in first })
        }
        let before = states(previous), after = states(current)
        let order = current.paths.map { PathKey(interface: $0.interface, family: $0.family) }
            + previous.paths.map { PathKey(interface: $0.interface, family: $0.family) }
        var seen: Set<PathKey> = []
        return order.filter { seen.insert($0).inserted && before[$0] != after[$0] }
    }

    /// The report object (schema_version 1) with "event", "previous",
    /// "previous_reason" and "changed" added, on one line.
    var json: String {
        let report = JSONFormatter.format(self.report)
        precondition(report.hasPrefix("{"), "a report is a JSON object")
        let paths = changedPaths.map { JSONOut.object(["family": .string($0.family?.rawValue), "interface": .string($0.interface)]) }
        // The watch keys first, then the report's own, as watch has always written them.
        let extra = "\"changed\":\(JSONOut.strings(changed).rendered()),\"changed_paths\":\(JSONOut.array(paths).rendered()),"
            + "\"event\":\(JSONOut.string(event.rawValue).rendered()),"
            + "\"previous\":\(JSONOut.string(previous?.verdict.rawValue).rendered()),"
            + "\"previous_reason\":\(JSONOut.string(previous?.reason.rawValue).rendered())"
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

    /// What a --exec hook finds in its environment (the portal URL is the network's: filtered).
    var environment: [String: String] {
        rawEnvironment.mapValues(NetworkText.environmentValue)
    }

    private var rawEnvironment: [String: String] {
        var environment = [
            "NETPROBE_EVENT": event.rawValue,
            "NETPROBE_VERDICT": report.verdict.rawValue,
            "NETPROBE_PREVIOUS": previous?.verdict.rawValue ?? "",
            "NETPROBE_REASON": report.reason.rawValue,
            "NETPROBE_PREVIOUS_REASON": previous?.reason.rawValue ?? "",
            "NETPROBE_PORTAL_URL": report.portal?.url ?? "",
            "NETPROBE_INTERFACE": interface,
        ]
        if allPaths {
            environment["NETPROBE_PATH_INTERFACE"] = changedPaths.first?.interface ?? ""
            environment["NETPROBE_PATH_FAMILY"] = changedPaths.first?.family?.rawValue ?? ""
        }
        return environment
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
