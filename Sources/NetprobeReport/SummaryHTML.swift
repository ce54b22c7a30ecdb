import NetprobeWire
import NetprobeVerdict
import NetprobeOutput
/// `netprobe report --format html`: one self-contained page, inline CSS and SVG only. No
/// script, no font, image or style sheet loaded from anywhere: it opens offline, from a mail
/// attachment or a ticket, and shows the same. Every string from the records goes through
/// HTMLText.escape; nothing from them becomes a link.
public enum SummaryHTML {
    static let width = 1200.0
    static let plotLeft = 190.0
    static let plotRight = 1180.0
    static var plotWidth: Double { plotRight - plotLeft }

    static let colors: [Verdict: String] = [.online: "#2f9e5b", .portal: "#e8a317", .offline: "#d64541"]
    static let seriesColors = ["#3b6fd6", "#8e44ad", "#16a2b8", "#a0522d", "#d0489b", "#5d6d7e", "#9aa312", "#1d8348"]

    public static func format(_ summary: WatchSummary) -> String {
        var page = """
            <!DOCTYPE html>
            <html lang="en">
            <head>
            <meta charset="utf-8">
            <meta name="viewport" content="width=device-width, initial-scale=1">
            <title>netprobe report</title>
            <style>\(style)</style>
            </head>
            <body>
            <h1>netprobe report</h1>

            """
        page += "<p class=\"meta\">\(HTMLText.escape(header(summary)))</p>\n"
        guard let first = summary.first, let last = summary.until ?? summary.last else {
            return page + "<p>No records: nothing to summarise.</p>\n</body>\n</html>\n"
        }
        let scale = Scale(first: first, last: last)
        page += "<h2>Timeline</h2>\n" + timeline(summary, scale)
        if !summary.latency.isEmpty {
            page += "<h2>Probe latency</h2>\n" + latency(summary, scale)
        }
        page += "<h2>Summary</h2>\n" + table(summary)
        if !summary.networks.isEmpty {
            page += "<h2>By network</h2>\n" + networks(summary)
        }
        return page + "</body>\n</html>\n"
    }

    static let style = """
        body{font:14px/1.4 system-ui,-apple-system,"Segoe UI",Roboto,"DejaVu Sans",sans-serif;margin:24px;color:#1d2329;background:#fff}\
        h1{font-size:22px;margin:0 0 4px}h2{font-size:17px;margin:28px 0 8px}\
        .meta{color:#555;margin:0 0 8px}svg{display:block;max-width:100%;height:auto}\
        svg text{font-size:11px;fill:#1d2329}svg .path-name{font-size:12px;font-weight:600}\
        svg .axis{fill:#555}svg .label{font-size:10.5px}svg .grid{stroke:#d9dde1;stroke-width:1}\
        table{border-collapse:collapse;font-size:13px;width:100%;max-width:1200px}th,td{border:1px solid #d9dde1;padding:4px 8px;vertical-align:top;text-align:left}\
        th{background:#f2f4f6}td.num{text-align:right;font-variant-numeric:tabular-nums}\
        .portal-url{font-family:ui-monospace,"DejaVu Sans Mono",monospace;font-size:12px;word-break:break-all}\
        ul.reasons{margin:0;padding:0;list-style:none}ul.reasons li{white-space:nowrap}.when{color:#555}td.urls{min-width:180px;max-width:240px}.caption{color:#555;font-size:12px;margin:4px 0 0}
        """

    static func header(_ summary: WatchSummary) -> String {
        var text = "\(summary.records) record(s) from \(summary.lines) line(s)"
        if let first = summary.first, let last = summary.until ?? summary.last {
            text += ", \(SummaryText.timestamp(first)) to \(SummaryText.timestamp(last)) (\(SummaryText.duration(summary.span)))"
            text += "; " + SummaryText.runs(summary).dropLast()
        }
        if summary.malformed > 0 { text += "; \(summary.malformed) malformed line(s) skipped" }
        if summary.late > 0 { text += "; \(summary.late) record(s) out of order beyond the reorder window skipped" }
        return text + "."
    }

    /// Time to x.
    struct Scale {
        var first: Int64
        var last: Int64
        var span: Double { Double(max(1, last - first)) }
        func x(_ time: Int64) -> Double {
            plotLeft + Double(min(max(time, first), last) - first) / span * plotWidth
        }
    }

    // MARK: - Timeline

    static let rowHeight = 64.0
    static let bandHeight = 24.0

    static func timeline(_ summary: WatchSummary, _ scale: Scale) -> String {
        let trackers = summary.trackers
        let height = 20 + Double(trackers.count) * rowHeight + 44
        var svg = "<svg class=\"timeline\" viewBox=\"0 0 \(n(width)) \(n(height))\" width=\"\(n(width))\" height=\"\(n(height))\" role=\"img\" aria-label=\"Verdict over time, per path\">\n"
        let bottom = 20 + Double(trackers.count) * rowHeight
        svg += axis(scale, top: 10, bottom: bottom)
        for (row, tracker) in trackers.enumerated() {
            svg += band(tracker, scale, top: 20 + Double(row) * rowHeight)
        }
        // Legend under the axis labels.
        var x = plotLeft
        for (name, color) in [("online", colors[.online]!), ("portal", colors[.portal]!), ("offline", colors[.offline]!), ("not observed", "#eceff1")] {
            svg += "<rect x=\"\(n(x))\" y=\"\(n(bottom + 26))\" width=\"12\" height=\"12\" fill=\"\(color)\" stroke=\"#b0b8bf\" stroke-width=\"0.5\"/>"
            svg += "<text x=\"\(n(x + 17))\" y=\"\(n(bottom + 36))\">\(name)</text>\n"
            x += 110
        }
        return svg + "</svg>\n"
    }

    static func band(_ tracker: PathTracker, _ scale: Scale, top: Double) -> String {
        let name = tracker.key?.label ?? "overall"
        let bandTop = top + 6
        var svg = "<g class=\"path-band\" data-path=\"\(HTMLText.escape(name, limit: 64))\">\n"
        svg += "<text class=\"path-name\" x=\"8\" y=\"\(n(bandTop + 16))\">\(HTMLText.escape(name, limit: 28))</text>\n"
        if let availability = tracker.availability {
            svg += "<text class=\"axis\" x=\"8\" y=\"\(n(bandTop + 31))\">\(SummaryText.format2(availability * 100))% online</text>\n"
        }
        svg += "<rect class=\"unobserved\" x=\"\(n(plotLeft))\" y=\"\(n(bandTop))\" width=\"\(n(plotWidth))\" height=\"\(n(bandHeight))\" fill=\"#eceff1\"><title>not observed</title></rect>\n"
        svg += cells(tracker.timeline, scale, top: bandTop)
        // The longest outage and portal periods, drawn exactly, with their reasons and durations.
        var placed: [(lane: Int, low: Double, high: Double)] = []
        for period in tracker.notable {
            let x0 = scale.x(period.start), x1 = scale.x(period.end)
            let w = max(2, x1 - x0)
            let kind = period.verdict == .offline ? "outage" : "portal"
            let reasons = period.reasons.joined(separator: ", ")
            let tip = "\(kind == "outage" ? "offline" : "portal") \(SummaryText.duration(period.duration)), "
                + "\(SummaryText.timestamp(period.start)) to \(SummaryText.timestamp(period.end))"
                + (period.ongoing ? " (still at the end)" : "") + ": \(reasons)"
            svg += "<rect class=\"period \(kind)\" x=\"\(n(x0))\" y=\"\(n(bandTop))\" width=\"\(n(w))\" height=\"\(n(bandHeight))\" "
                + "fill=\"\(colors[period.verdict]!)\" stroke=\"#7a1f1c\" stroke-width=\"\(period.verdict == .offline ? "0.6" : "0")\">"
                + "<title>\(HTMLText.escape(tip, limit: 400))</title></rect>\n"
            let label = "\(SummaryText.duration(period.duration)) \(period.reason)"
            let textWidth = Double(min(label.count, 48)) * 5.9
            let center = min(max(x0 + w / 2, plotLeft + textWidth / 2), plotRight - textWidth / 2)
            let low = center - textWidth / 2 - 3, high = center + textWidth / 2 + 3
            // Two lanes of labels under the band; a label that fits in neither is left to its tooltip.
            guard let lane = (0..<2).first(where: { lane in placed.allSatisfy { $0.lane != lane || high < $0.low || low > $0.high } })
            else { continue }
            placed.append((lane, low, high))
            let laneY = bandTop + bandHeight + 12 + Double(lane) * 12
            svg += "<line x1=\"\(n(x0 + w / 2))\" y1=\"\(n(bandTop + bandHeight))\" x2=\"\(n(center))\" y2=\"\(n(laneY - 9))\" stroke=\"#888\" stroke-width=\"0.6\"/>"
            svg += "<text class=\"label \(kind)-label\" x=\"\(n(center))\" y=\"\(n(laneY))\" text-anchor=\"middle\">"
                + "\(HTMLText.escape(label, limit: 48))</text>\n"
        }
        return svg + "</g>\n"
    }

    /// The bucketed band: runs of buckets in one verdict as one rectangle; a bucket that saw
    /// several verdicts split top to bottom in proportion.
    static func cells(_ buckets: TimeBuckets<StateTime>, _ scale: Scale, top: Double) -> String {
        var svg = ""
        var run: (verdict: Verdict, start: Int64, end: Int64, ms: Int64)?
        func flush() {
            guard let open = run else { return }
            let x0 = scale.x(open.start), x1 = scale.x(open.end)
            svg += "<rect class=\"band \(open.verdict.rawValue)\" x=\"\(n(x0))\" y=\"\(n(top))\" width=\"\(n(max(0.5, x1 - x0)))\" height=\"\(n(bandHeight))\" fill=\"\(colors[open.verdict]!)\">"
                + "<title>\(open.verdict.rawValue), \(SummaryText.timestamp(open.start)) to \(SummaryText.timestamp(open.end))</title></rect>\n"
            run = nil
        }
        for (index, cell) in buckets.cells.enumerated() where cell.total > 0 {
            let start = max(scale.first, buckets.start(of: index)), end = min(scale.last, buckets.start(of: index) + buckets.width)
            let parts: [(Verdict, Int64)] = [(.online, cell.online), (.portal, cell.portal), (.offline, cell.offline)].filter { $0.1 > 0 }
            if parts.count == 1 {
                let verdict = parts[0].0
                if let open = run, open.verdict == verdict, open.end == start {
                    run?.end = end
                } else {
                    flush()
                    run = (verdict, start, end, cell.total)
                }
                continue
            }
            flush()
            let x0 = scale.x(start), w = max(0.5, scale.x(end) - x0)
            var y = top
            let shares = parts.map { "\($0.0.rawValue) \(SummaryText.percent($0.1, cell.total))" }.joined(separator: ", ")
            for (verdict, ms) in parts {
                let h = bandHeight * Double(ms) / Double(cell.total)
                svg += "<rect class=\"band mixed\" x=\"\(n(x0))\" y=\"\(n(y))\" width=\"\(n(w))\" height=\"\(n(h))\" fill=\"\(colors[verdict]!)\">"
                    + "<title>\(SummaryText.timestamp(start)) to \(SummaryText.timestamp(end)): \(shares)</title></rect>"
                y += h
            }
            svg += "\n"
        }
        flush()
        return svg
    }

    static func axis(_ scale: Scale, top: Double, bottom: Double) -> String {
        let span = scale.last - scale.first
        let minute: Int64 = 60_000, hour = 60 * minute, day = 24 * hour
        let steps: [Int64] = [minute, 5 * minute, 15 * minute, hour, 3 * hour, 6 * hour, 12 * hour, day, 2 * day, 7 * day, 14 * day, 30 * day, 91 * day]
        let step = steps.first { span / $0 <= 8 } ?? 365 * day
        var svg = ""
        var tick = (scale.first + step - 1) / step * step
        if scale.first < 0 { tick = scale.first }
        while tick <= scale.last {
            let x = scale.x(tick)
            svg += "<line class=\"grid\" x1=\"\(n(x))\" y1=\"\(n(top))\" x2=\"\(n(x))\" y2=\"\(n(bottom))\"/>"
            let stamp = SummaryText.timestamp(tick)  // 2026-11-22T10:00:00Z
            let label = step >= day ? String(stamp.prefix(10)) : String(stamp.dropFirst(5).prefix(11)).replacingT()
            svg += "<text class=\"axis\" x=\"\(n(x))\" y=\"\(n(bottom + 14))\" text-anchor=\"middle\">\(label)</text>\n"
            tick += step
        }
        return svg
    }

    // MARK: - Table

    static func table(_ summary: WatchSummary) -> String {
        var html = "<table class=\"summary\">\n<thead><tr><th>Path</th><th>Observed</th><th>Online</th><th>Portal</th><th>Offline</th>"
            + "<th>Outages</th><th>Outage time</th><th>Longest outage</th><th>Portal periods</th><th>Portal time</th><th>Reasons</th><th>Portal URLs</th></tr></thead>\n<tbody>\n"
        for tracker in summary.trackers {
            let name = tracker.key?.label ?? "overall"
            html += "<tr class=\"path-row\"><td>\(HTMLText.escape(name, limit: 64))</td>"
            var seen = "-"
            if let first = tracker.first, let last = tracker.last {
                seen = "\(SummaryText.duration(tracker.observed))<br><span class=\"when\">\(short(first)) to \(short(last))</span>"
            }
            html += "<td>\(seen)</td>"
            for part in [tracker.online, tracker.portal, tracker.offline] {
                html += "<td class=\"num\">\(SummaryText.percent(part, tracker.observed))</td>"
            }
            // Outages by the hop that failed, when the records named any.
            let byFault = tracker.faults.map { "\($0.fault?.rawValue ?? "none") \($0.count)x" }.joined(separator: ", ")
            html += "<td class=\"num\">\(tracker.outages.count)" + (byFault.isEmpty ? "" : "<br><span class=\"when\">\(byFault)</span>")
                + "</td><td class=\"num\">\(SummaryText.duration(tracker.outages.totalMs))</td>"
            if let longest = tracker.outages.longest {
                html += "<td>\(SummaryText.duration(longest.duration)) from <span class=\"when\">\(short(longest.start))</span>"
                    + " (\(HTMLText.escape(longest.reasons.joined(separator: ", "), limit: 200)))\(longest.ongoing ? ", ongoing" : "")</td>"
            } else {
                html += "<td>-</td>"
            }
            html += "<td class=\"num\">\(tracker.portals.count)</td><td class=\"num\">\(SummaryText.duration(tracker.portals.totalMs))</td>"
            html += "<td><ul class=\"reasons\">"
            for reason in tracker.reasons.sorted(by: { $0.ms > $1.ms }) {
                html += "<li>\(reason.verdict.rawValue): \(HTMLText.escape(reason.reason, limit: 64)) \(reason.count)x, \(SummaryText.duration(reason.ms))</li>"
            }
            if tracker.otherReasons > 0 { html += "<li>\(tracker.otherReasons)x further reason codes</li>" }
            html += "</ul></td><td class=\"urls\">"
            html += tracker.portalURLs.map { "<span class=\"portal-url\">\(HTMLText.escape($0.url, limit: 300))</span> (\($0.count)x)" }
                .joined(separator: "<br>")
            if tracker.otherPortalURLs > 0 { html += "<br>\(tracker.otherPortalURLs)x further URLs" }
            html += "</td></tr>\n"
        }
        return html + "</tbody>\n</table>\n"
    }

    /// The overall answer's time by network, one row each.
    static func networks(_ summary: WatchSummary) -> String {
        var html = "<table class=\"networks\">\n<thead><tr><th>Network</th><th>Id</th><th>Observed</th><th>Online</th><th>Portal</th>"
            + "<th>Offline</th><th>Outages</th><th>Availability</th></tr></thead>\n<tbody>\n"
        for network in summary.networks {
            let tracker = network.tracker
            html += "<tr class=\"network-row\"><td>\(HTMLText.escape(network.name, limit: 64))</td><td>\(HTMLText.escape(network.id, limit: 64))</td>"
                + "<td>\(SummaryText.duration(tracker.observed))</td>"
            for part in [tracker.online, tracker.portal, tracker.offline] {
                html += "<td class=\"num\">\(SummaryText.percent(part, tracker.observed))</td>"
            }
            html += "<td class=\"num\">\(tracker.outages.count)</td>"
                + "<td class=\"num\">\(tracker.availability.map { SummaryText.format2($0 * 100) + "%" } ?? "-")</td></tr>\n"
        }
        return html + "</tbody>\n</table>\n"
    }

    /// `2026-03-02 14:05`: minutes are enough in a table cell; the JSON has the milliseconds.
    static func short(_ time: Int64) -> String {
        String(SummaryText.timestamp(time).prefix(16)).replacingT()
    }

    // MARK: - Latency

    static func latency(_ summary: WatchSummary, _ scale: Scale) -> String {
        let top = 16.0, plotHeight = 220.0
        let bottom = top + plotHeight
        let legendRows = (summary.latency.count + 3) / 4
        let height = bottom + 38 + Double(legendRows) * 18 + 4
        // The axis fits the averages (with headroom); a slow outlier must not flatten the rest.
        // The shaded min-max range is clamped at the top.
        var highest = 1.0
        for series in summary.latency {
            for cell in series.buckets.cells { if let average = cell.average { highest = max(highest, average) } }
        }
        let yMax = niceCeiling(highest * 1.25)
        func y(_ ms: Double) -> Double { bottom - min(ms, yMax) / yMax * plotHeight }
        var svg = "<svg class=\"latency\" viewBox=\"0 0 \(n(width)) \(n(height))\" width=\"\(n(width))\" height=\"\(n(height))\" role=\"img\" aria-label=\"Probe latency per operator\">\n"
        svg += axis(scale, top: top, bottom: bottom)
        // Five divisions: every ceiling niceCeiling gives (1, 2, 2.5, 5 x 10^n) divides into round steps.
        for index in 0...5 {
            let value = yMax * Double(index) / 5
            svg += "<line class=\"grid\" x1=\"\(n(plotLeft))\" y1=\"\(n(y(value)))\" x2=\"\(n(plotRight))\" y2=\"\(n(y(value)))\"/>"
            svg += "<text class=\"axis\" x=\"\(n(plotLeft - 6))\" y=\"\(n(y(value) + 4))\" text-anchor=\"end\">\(TextHelpers.fixed(value, decimals: yMax < 10 ? 1 : 0)) ms</text>\n"
        }
        for (number, series) in summary.latency.enumerated() {
            let color = seriesColors[number % seriesColors.count]
            let buckets = series.buckets
            var runs: [[(x: Double, cell: LatencyCell)]] = []
            var previous = -2
            for (index, cell) in buckets.cells.enumerated() where cell.count > 0 {
                let start = buckets.start(of: index)
                let x = scale.x(min(scale.last, start + buckets.width / 2))
                if index != previous + 1 || runs.isEmpty { runs.append([]) }
                runs[runs.count - 1].append((x, cell))
                previous = index
            }
            let name = HTMLText.escape(series.name, limit: 64)
            let stats = "\(name): \(series.total.count) samples, min \(SummaryText.ms(series.total.min)), "
                + "avg \(SummaryText.ms(series.total.average ?? 0)), max \(SummaryText.ms(series.total.max))"
            svg += "<g class=\"series\" data-operator=\"\(name)\"><title>\(stats)</title>\n"
            // The averages as one line through every bucket that has samples (watch writes a record
            // only on a change, so samples are often far apart), the min-max shade over runs of
            // adjacent buckets, and a dot per bucket while there are few enough to tell apart.
            let points = runs.joined()
            if points.count > 1 {
                svg += "<polyline class=\"average\" points=\"\(points.map { "\(n($0.x)),\(n(y($0.cell.average ?? 0)))" }.joined(separator: " "))\" "
                    + "fill=\"none\" stroke=\"\(color)\" stroke-width=\"1.3\" stroke-linejoin=\"round\"/>\n"
            }
            for run in runs where run.count > 1 {
                let upper = run.map { "\(n($0.x)),\(n(y($0.cell.max)))" }
                let lower = run.reversed().map { "\(n($0.x)),\(n(y($0.cell.min)))" }
                svg += "<polygon class=\"range\" points=\"\((upper + lower).joined(separator: " "))\" fill=\"\(color)\" fill-opacity=\"0.13\" stroke=\"none\"/>\n"
            }
            if points.count <= 300 {
                for point in points {
                    svg += "<circle cx=\"\(n(point.x))\" cy=\"\(n(y(point.cell.average ?? 0)))\" r=\"2.2\" fill=\"\(color)\"/>"
                }
                svg += "\n"
            }
            svg += "</g>\n"
            let legendX = plotLeft + Double(number % 4) * 245, legendY = bottom + 38 + Double(number / 4) * 18
            svg += "<rect x=\"\(n(legendX))\" y=\"\(n(legendY - 9))\" width=\"14\" height=\"4\" fill=\"\(color)\"/>"
            svg += "<text class=\"legend\" x=\"\(n(legendX + 19))\" y=\"\(n(legendY - 4))\">\(HTMLText.escape(series.name, limit: 28)) "
                + "(avg \(SummaryText.ms(series.total.average ?? 0)), \(series.total.count) samples)</text>\n"
        }
        svg += "</svg>\n<p class=\"caption\">Each probe's <code>timings.total_ms</code> by operator, in at most \(WatchSummarizer.latencyCapacity) "
            + "time buckets per operator: the line is each bucket's average, the shade its minimum to maximum "
            + "(cut at the top of the axis).</p>\n"
        return svg
    }

    /// 1, 2, 2.5 or 5 times a power of ten, at least `value`.
    static func niceCeiling(_ value: Double) -> Double {
        var magnitude = 1.0
        while magnitude * 10 <= value { magnitude *= 10 }
        while magnitude > value && magnitude > 0.1 { magnitude /= 10 }
        for factor in [1.0, 2.0, 2.5, 5.0, 10.0] where magnitude * factor >= value { return magnitude * factor }
        return magnitude * 10
    }

    /// Coordinates with one decimal: finer is invisible and only makes the page bigger.
    static func n(_ value: Double) -> String {
        let text = TextHelpers.fixed(value, decimals: 1)
        return text.hasSuffix(".0") ? String(text.dropLast(2)) : text
    }
}

extension String {
    /// `11-22T10:00` to `11-22 10:00` for axis labels.
    fileprivate func replacingT() -> String { String(map { $0 == "T" ? " " : $0 }) }
}
