import NetprobeWire
import NetprobeVerdict
import NetprobeOutput
/// `netprobe report --format text`: a table of every path, then each path's details. Every
/// string that came from the records (reasons, interfaces, portal URLs, operators) goes
/// through TerminalText.escape: a log is as hostile as the network that wrote into it.
public enum SummaryText {
    public static func format(_ summary: WatchSummary) -> String {
        var out = "netprobe report: \(summary.records) record(s) from \(summary.lines) line(s)"
        var skipped: [String] = []
        if summary.malformed > 0 { skipped.append("\(summary.malformed) malformed") }
        if summary.late > 0 { skipped.append("\(summary.late) out of order beyond the window") }
        if !skipped.isEmpty { out += "; skipped " + skipped.joined(separator: ", ") }
        if summary.reordered > 0 { out += "; \(summary.reordered) put back in time order" }
        out += "\n"
        guard let first = summary.first, let last = summary.last else {
            return out + "no records: nothing to summarise\n"
        }
        let until = summary.until ?? last
        out += "span: \(timestamp(first)) .. \(timestamp(until)) (\(duration(summary.span)))"
        out += "\n" + runs(summary) + "\n"

        let rows = summary.trackers.map { tracker -> [String] in
            [name(tracker), duration(tracker.observed), percent(tracker.online, tracker.observed),
             percent(tracker.portal, tracker.observed), percent(tracker.offline, tracker.observed),
             "\(tracker.outages.count)", duration(tracker.outages.totalMs),
             tracker.outages.longest.map { duration($0.duration) } ?? "-",
             "\(tracker.portals.count)", duration(tracker.portals.totalMs)]
        }
        out += table(header: ["path", "observed", "online", "portal", "offline", "outages", "down", "longest", "portals", "portal time"],
                     rows: rows)
        out += networks(summary)
        for tracker in summary.trackers {
            out += "\n" + details(tracker)
        }
        if !summary.latency.isEmpty {
            out += "\nprobe latency (timings.total_ms of the overall answer's probes)\n"
            let latencyRows = summary.latency.map { series -> [String] in
                [TerminalText.escape(series.name, limit: 64), "\(series.total.count)", ms(series.total.min),
                 ms(series.total.average ?? 0), ms(series.total.max)]
            }
            out += table(header: ["operator", "samples", "min", "avg", "max"], rows: latencyRows)
        }
        if summary.droppedPaths > 0 || summary.droppedOperators > 0 {
            out += "\nleft out: \(summary.droppedPaths) path mention(s) beyond \(WatchSummarizer.pathLimit) paths, "
                + "\(summary.droppedOperators) probe sample(s) beyond \(WatchSummarizer.operatorLimit) operators\n"
        }
        return out
    }

    /// The overall answer's time by network: one row each, named as a person knows it.
    static func networks(_ summary: WatchSummary) -> String {
        guard !summary.networks.isEmpty else { return "" }
        let rows = summary.networks.map { network -> [String] in
            let tracker = network.tracker
            return [TerminalText.escape(network.name, limit: 40), TerminalText.escape(network.id, limit: 64), duration(tracker.observed),
                    percent(tracker.online, tracker.observed), percent(tracker.portal, tracker.observed),
                    percent(tracker.offline, tracker.observed), "\(tracker.outages.count)",
                    tracker.availability.map { format2($0 * 100) + "%" } ?? "-"]
        }
        var out = "\nby network (the overall answer)\n"
        out += table(header: ["network", "id", "observed", "online", "portal", "offline", "outages", "availability"], rows: rows)
        if summary.droppedNetworks > 0 {
            out += "left out: \(summary.droppedNetworks) record(s) of networks beyond \(WatchSummarizer.networkLimit)\n"
        }
        return out
    }

    /// `watch: 2 run(s), 1 stopped, 1 ended without a stop; not observed 20s; stopped at ...`.
    static func runs(_ summary: WatchSummary) -> String {
        var parts = ["\(summary.runs) run(s)", "\(summary.stops) stopped"]
        if summary.lostRuns > 0 { parts.append("\(summary.lostRuns) ended without a stop") }
        if summary.unproven > 0 { parts.append("\(summary.unproven) stretch(es) unproven (asleep, clock stepped, or silent)") }
        var line = "watch: " + parts.joined(separator: ", ") + "; not observed \(duration(summary.notObserved))"
        if let last = summary.last {
            if summary.live {
                line += "; still running"
            } else if summary.stopped {
                line += "; stopped at \(timestamp(last))"
            } else if let now = summary.now, now > last {
                line += "; nothing written since \(timestamp(last))"
            }
        }
        return line + "\n"
    }

    static func name(_ tracker: PathTracker) -> String {
        tracker.key.map { TerminalText.escape($0.label, limit: 40) } ?? "overall"
    }

    private static func details(_ tracker: PathTracker) -> String {
        var out = "\(name(tracker))\n"
        if let first = tracker.first, let last = tracker.last {
            out += "  seen         \(timestamp(first)) .. \(timestamp(last))\n"
        }
        if let availability = tracker.availability {
            out += "  availability \(format2(availability * 100))% online\n"
        }
        if let longest = tracker.outages.longest {
            out += "  longest outage \(duration(longest.duration)) from \(timestamp(longest.start))"
                + " (\(longest.reasons.map { TerminalText.escape($0, limit: 64) }.joined(separator: ", ")))"
                + (longest.ongoing ? ", still offline at the end" : "") + "\n"
        }
        if !tracker.faults.isEmpty {
            out += "  outages by fault\n"
            for entry in tracker.faults.sorted(by: { $0.ms != $1.ms ? $0.ms > $1.ms : $0.count > $1.count }) {
                out += "    \((entry.fault?.rawValue ?? "none").padding(9)) \(String(entry.count).leftPadding(6))x \(duration(entry.ms).leftPadding(10))\n"
            }
        }
        if let longest = tracker.portals.longest {
            out += "  longest portal period \(duration(longest.duration)) from \(timestamp(longest.start))"
                + (longest.ongoing ? ", still behind the portal at the end" : "") + "\n"
        }
        if !tracker.reasons.isEmpty {
            out += "  reasons\n"
            for reason in tracker.reasons.sorted(by: { $0.ms != $1.ms ? $0.ms > $1.ms : $0.count > $1.count }) {
                out += "    \(reason.verdict.rawValue.padding(7)) \(TerminalText.escape(reason.reason, limit: 64).padding(20)) "
                    + "\(String(reason.count).leftPadding(6))x \(duration(reason.ms).leftPadding(10))\n"
            }
            if tracker.otherReasons > 0 { out += "    (\(tracker.otherReasons) more of further reason codes)\n" }
        }
        if !tracker.portalURLs.isEmpty {
            out += "  portal URLs\n"
            for entry in tracker.portalURLs {
                out += "    \(TerminalText.escape(entry.url, limit: 300)) (\(entry.count)x)\n"
            }
            if tracker.otherPortalURLs > 0 { out += "    (\(tracker.otherPortalURLs) more of further URLs)\n" }
        }
        return out
    }

    private static func table(header: [String], rows: [[String]]) -> String {
        var widths = header.map(\.count)
        for row in rows { for (index, cell) in row.enumerated() { widths[index] = max(widths[index], cell.count) } }
        func line(_ cells: [String]) -> String {
            cells.enumerated().map { index, cell in index == 0 ? cell.padding(widths[0]) : cell.leftPadding(widths[index]) }
                .joined(separator: "  ").trailingSpaceTrimmed + "\n"
        }
        return line(header) + rows.map(line).joined()
    }

    static func percent(_ part: Int64, _ whole: Int64) -> String {
        whole > 0 ? format2(Double(part) * 100 / Double(whole)) + "%" : "-"
    }

    static func ms(_ value: Double) -> String {
        value.isFinite ? format1(value) + " ms" : "-"
    }

    /// `2026-11-22T10:00:07Z`, with `.123` when there are milliseconds. From the integer
    /// milliseconds directly: through Date's Double seconds, times far from 1970 came back 1 ms off.
    public static func timestamp(_ ms: Int64) -> String {
        let millisOfDay = ((ms % 86_400_000) + 86_400_000) % 86_400_000
        let (year, month, day) = Timestamp.civil(fromDays: (ms - millisOfDay) / 86_400_000)
        let seconds = millisOfDay / 1000
        var text = "\(pad(year, 4))-\(pad(month, 2))-\(pad(day, 2))T\(pad(seconds / 3600, 2)):\(pad(seconds / 60 % 60, 2)):\(pad(seconds % 60, 2))"
        if millisOfDay % 1000 != 0 { text += "." + pad(millisOfDay % 1000, 3) }
        return text + "Z"
    }

    private static func pad(_ value: Int64, _ width: Int) -> String {
        let digits = String(value)
        return String(repeating: "0", count: max(0, width - digits.count)) + digits
    }

    /// `850ms`, `42s`, `5m 3s`, `2h 13m`, `3d 4h`: two units at most.
    public static func duration(_ ms: Int64) -> String {
        if ms < 1000 { return "\(ms)ms" }
        let seconds = ms / 1000
        if seconds < 60 { return "\(seconds)s" }
        if seconds < 3600 { return "\(seconds / 60)m \(seconds % 60)s" }
        if seconds < 86_400 { return "\(seconds / 3600)h \(seconds / 60 % 60)m" }
        return "\(seconds / 86_400)d \(seconds / 3600 % 24)h"
    }

    static func format2(_ value: Double) -> String { TextHelpers.fixed(value, decimals: 2) }
    static func format1(_ value: Double) -> String { TextHelpers.fixed(value, decimals: 1) }
}

extension String {
    func padding(_ width: Int) -> String { count >= width ? self : self + String(repeating: " ", count: width - count) }
    func leftPadding(_ width: Int) -> String { count >= width ? self : String(repeating: " ", count: width - count) + self }
    var trailingSpaceTrimmed: String {
        var text = self
        while text.last == " " { text.removeLast() }
        return text
    }
}
