#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import NetprobeWire
import NetprobeVerdict
import NetprobeOutput
import NetprobeSystem
import NetprobeNetwork
import NetprobeCheck

/// One line of `watch` output: the start record, or a change.
///
/// A change is a different verdict, a different reason, a different portal login URL (a new
/// portal is news even when the verdict stays "portal"), or a different `partial` (HTTPS to the
/// probe operators failing while plain HTTP validates is news to whoever relies on HTTPS), or
/// another network (`network.id`: a machine that moved from home to the office is news, and the
/// report counts time by network).
/// Evidence that moves without changing those (timings, which probe answered
/// first) is not a change: watch reports states, not measurements.
///
/// The third kind, `expiring`, is no change at all: the Captive Portal API's session is about
/// to end (once per session), while the verdict still stands.
///
/// `alive` and `stop` are no news either: they repeat the state reported last, stamped with the
/// moment they are written, so that a reader of the log knows how long that state is proven. A
/// log of changes alone cannot tell a state that lasted from a watch that died after writing it.
public struct WatchRecord: Sendable {
    public enum Event: String, Sendable {
        case start, change, expiring
        /// The heartbeat: watch is running and the state reported last still holds.
        case alive
        /// watch is ending cleanly: the state reported last held until now, and nothing is observed after.
        case stop
    }

    public let event: Event
    public let report: Report
    public let previous: Report?
    /// Of "verdict", "reason", "portal_url", "partial", "network", "paths"; empty for the start record.
    public let changed: [String]
    /// With --all-paths: the paths whose verdict or reason changed, came or went.
    public var changedPaths: [PathKey] = []
    /// Watching every path (--all-paths): hooks are told which path changed.
    public var allPaths = false
    /// Why the check that found this state ran.
    public var trigger: WatchTrigger = .start
    /// The longest time between two records of this watch while it runs (the heartbeat); nil
    /// when it writes none. Every record carries it, so a reader of any part of the log knows
    /// how long a silence proves that watch ended.
    public var heartbeat: Duration?
    /// For `alive` and `stop`: when the record was written (its `timestamp`); the report's own
    /// timestamp is that of the check that found the state.
    public var writtenAt: Date?
    /// For `expiring`: the session's end as the warning check knew it.
    public var sessionEnd: Date?
    /// The boot clocks at the record's `timestamp`, and the boot: what tells a reader a sleep
    /// or a stepped wall clock from time watch observed. nil writes them as null.
    public var clock: RecordClock?
    /// The interface the probes left through (empty when the path was down).
    public var interface: String {
        report.answer.families.isEmpty ? "" : report.answer.interface ?? ""
    }

    /// The record `current` calls for after `previous`, or nil when nothing changed.
    public static func after(_ previous: Report?, _ current: Report, allPaths: Bool) -> WatchRecord? {
        guard let previous else { return WatchRecord(event: .start, report: current, previous: nil, changed: [], allPaths: allPaths) }
        var changed: [String] = []
        if previous.verdict != current.verdict { changed.append("verdict") }
        if previous.reason != current.reason { changed.append("reason") }
        if !samePortalPage(previous.portal, current.portal) { changed.append("portal_url") }
        if (previous.partial ?? false) != (current.partial ?? false) { changed.append("partial") }
        // Another network is news even when its verdict is the same: time is counted by network.
        if previous.network?.id != current.network?.id { changed.append("network") }
        let paths = allPaths ? pathChanges(previous, current) : []
        if !paths.isEmpty { changed.append("paths") }
        if changed.isEmpty { return nil }
        return WatchRecord(event: .change, report: current, previous: previous, changed: changed, changedPaths: paths,
                           allPaths: allPaths)
    }

    /// Two portals show the same page: the same URL, or both only a probe page the portal
    /// intercepted (the network named none either time; which intercepted probe is named
    /// depends on which answered before the verdict was final, and is not news).
    static func samePortalPage(_ previous: PortalInfo?, _ current: PortalInfo?) -> Bool {
        if previous?.source == "probe" && current?.source == "probe" { return true }
        return previous?.url == current?.url
    }

    /// The session warning, made by the check (`report`) that re-asked the API just before the
    /// end: it tells of the state reported (`reported`; with --hold a new state may be held and
    /// not reported yet), stamped with that check's start, and of the session's end as then known.
    public static func expiring(_ report: Report, reported: Report, sessionEnd: Date?, allPaths: Bool) -> WatchRecord {
        WatchRecord(event: .expiring, report: reported, previous: reported, changed: [], allPaths: allPaths, trigger: .expiry,
                    writtenAt: report.timestamp, sessionEnd: sessionEnd ?? report.portalSessionEnd)
    }

    /// A heartbeat (`alive`) or the last record (`stop`): the state reported last, as of `now`.
    /// Their trigger is what made them: the heartbeat's timer (`interval`), a stop signal (`signal`).
    public static func holding(_ event: Event, _ reported: Report, at now: Date, allPaths: Bool) -> WatchRecord {
        precondition(event == .alive || event == .stop, "only alive and stop repeat the reported state")
        return WatchRecord(event: event, report: reported, previous: nil, changed: [], allPaths: allPaths,
                           trigger: event == .alive ? .interval : .signal, writtenAt: now)
    }

    /// When the record says it was made: the moment it was written for `alive` and `stop`, else its check's start.
    public var timestamp: Date { writtenAt ?? report.timestamp }

    public static func pathChanges(_ previous: Report, _ current: Report) -> [PathKey] {
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

    /// The report object (schema_version 1) with "event", "previous", "previous_reason",
    /// "changed", "changed_paths", "trigger", "heartbeat_seconds", "boot_id",
    /// "boottime_seconds" and "monotonic_seconds" added, on one line.
    public var json: String {
        let report = JSONFormatter.format(self.report, timestamp: timestamp)
        precondition(report.hasPrefix("{"), "a report is a JSON object")
        let paths = changedPaths.map { JSONOut.object(["family": .string($0.family?.rawValue), "interface": .string($0.interface)]) }
        // The watch keys first, then the report's own, as watch has always written them.
        let reading = clock?.reading
        func seconds(_ duration: Duration?) -> JSONOut { .number(duration.map { $0.inMilliseconds.rounded() / 1000 }) }
        let extra = "\"boot_id\":\(JSONOut.string(clock?.bootID).rendered()),"
            + "\"boottime_seconds\":\(seconds(reading?.boottime).rendered()),"
            + "\"changed\":\(JSONOut.strings(changed).rendered()),\"changed_paths\":\(JSONOut.array(paths).rendered()),"
            + "\"event\":\(JSONOut.string(event.rawValue).rendered()),"
            + "\"heartbeat_seconds\":\(JSONOut.number(heartbeat.map { Double($0.inNanoseconds) / 1e9 }).rendered()),"
            + "\"monotonic_seconds\":\(seconds(reading?.monotonic).rendered()),"
            + "\"previous\":\(JSONOut.string(previous?.verdict.rawValue).rendered()),"
            + "\"previous_reason\":\(JSONOut.string(previous?.reason.rawValue).rendered()),"
            + "\"trigger\":\(JSONOut.string(trigger.rawValue).rendered())"
        let body = report.dropFirst()
        return "{" + extra + (body.hasPrefix("}") ? "" : ",") + body
    }

    /// `2026-11-22T10:00:00Z online probes-validated (was offline: no-default-route)`;
    /// `2026-11-22T10:00:00Z expiring online probes-validated session ends 2026-11-22T10:01:00Z`
    public var text: String {
        if event == .alive || event == .stop {
            return "\(Self.timestamp(timestamp)) \(event.rawValue) \(report.verdict.rawValue) \(report.reason.rawValue)"
        }
        if event == .expiring {
            let end = (sessionEnd ?? report.portalSessionEnd).map(Self.timestamp) ?? "unknown"
            return "\(Self.timestamp(timestamp)) expiring \(report.verdict.rawValue) \(report.reason.rawValue) session ends \(end)"
        }
        var line = "\(Self.timestamp(report.timestamp)) \(report.verdict.rawValue) \(report.reason.rawValue)"
        if report.partial == true { line += " partial" }
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
    public var environment: [String: String] {
        rawEnvironment.mapValues(NetworkText.environmentValue)
    }

    private var rawEnvironment: [String: String] {
        var environment = [
            "NETPROBE_EVENT": event.rawValue,
            "NETPROBE_VERDICT": report.verdict.rawValue,
            "NETPROBE_PREVIOUS": previous?.verdict.rawValue ?? "",
            "NETPROBE_REASON": report.reason.rawValue,
            "NETPROBE_FAULT": report.fault?.fault.rawValue ?? "",
            "NETPROBE_FAULT_DETAIL": report.fault?.detail ?? "",
            "NETPROBE_PREVIOUS_REASON": previous?.reason.rawValue ?? "",
            "NETPROBE_PORTAL_URL": report.portal?.url ?? "",
            "NETPROBE_INTERFACE": interface,
            "NETPROBE_NETWORK_ID": report.network?.id ?? "",
            "NETPROBE_NETWORK_NAME": report.network?.name ?? "",
            "NETPROBE_TRIGGER": trigger.rawValue,
            "NETPROBE_PORTAL_EXPIRES_AT": (sessionEnd ?? report.portalSessionEnd).map(Self.timestamp) ?? "",
            "NETPROBE_PORTAL_BYTES_REMAINING": report.answer.sessionBytesRemaining.map(String.init) ?? "",
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
