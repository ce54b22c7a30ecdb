#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import NetprobeWire
import NetprobeVerdict

/// The text lines for the portal and what else the network does. Every string that came
/// from the network (URLs, names, error text) goes through `TerminalText.escape`.
extension TextFormatter {
    static func portalLines(_ report: Report, palette: Palette) -> [String] {
        var lines: [String] = []
        if let portal = report.portal {
            if let url = portal.url, portal.source == "probe" {
                // The network named no login page; the probe's own page is where its portal shows.
                lines.append("  log in at: \(palette.bold(TerminalText.escape(url)))"
                             + "  (from probe: the network named no login page; the portal answers this one)")
            } else if let url = portal.url, portal.source == PortalInfo.rememberedSource {
                // Named by an earlier full check on this network, not by this one.
                lines.append("  log in at: \(palette.bold(TerminalText.escape(url)))"
                             + "  (remembered: an earlier check found it on this network; this one found no page)")
            } else if let url = portal.url {
                lines.append("  log in at: \(palette.bold(TerminalText.escape(url)))" + (portal.source.map { "  (from \($0))" } ?? ""))
            } else {
                lines.append("  log in at: unknown (open any http:// page in a browser)")
            }
            if let name = portal.locationName {
                lines.append("  venue: \(TerminalText.escape(name, limit: 120))")
            }
            if let login = portal.loginURL, login != portal.url {
                lines.append("  WISPr login URL: \(TerminalText.escape(login))")
            }
        }
        if let capport = report.capport {
            lines.append("  captive portal API: " + capportSummary(capport))
        }
        if let inform = report.inform, inform.captivePortal == nil, inform.state != .staticAddress {
            // The network was asked for the API and did not name one: say why, briefly. A
            // static address is the ordinary case of a network with no DHCP server: the JSON says it.
            lines.append("  DHCPINFORM on \(TerminalText.escape(inform.interface)): \(inform.state.rawValue)"
                         + (inform.error.map { " (\(TerminalText.escape($0, limit: 120)))" } ?? ""))
        }
        return lines
    }

    static func capportSummary(_ capport: CapportReport) -> String {
        let origin = "(\(TerminalText.escape(capport.uri, limit: 200)) from \(capport.source)"
            + (capport.interface.map { " on \(TerminalText.escape($0))" } ?? "") + ")"
        switch capport.state {
        case .unrestricted:
            return "unrestricted: the network announces no captive portal " + origin
        case .failed where CapportReport.isPlainHTTP(capport.uri):
            // RFC 8908 requires https; a network that announces plain http is most likely a portal
            // that never read it, or someone on the path who wants the answer to be readable.
            return "not queried: http:// (RFC 8908 requires https); a plain-http API announcement is itself "
                + "a sign of a captive portal " + origin
        case .failed:
            return "no answer: \(TerminalText.escape(capport.error ?? "unknown error", limit: 200)) " + origin
        case .answered:
            guard let answer = capport.answer else { return "answered " + origin }
            var parts = [answer.captive ? "captive" : "not captive"]
            if let seconds = answer.secondsRemaining { parts.append(duration(seconds) + " left") }
            if let bytes = answer.bytesRemaining { parts.append(byteCount(bytes) + " left") }
            if answer.canExtendSession == true { parts.append("session can be extended") }
            if let venue = answer.venueInfoURL { parts.append("venue info: " + TerminalText.escape(venue)) }
            return parts.joined(separator: ", ") + " " + origin
        }
    }

    static func networkLines(_ report: Report) -> [String] {
        var lines: [String] = []
        if let partial = report.partial {
            if partial {
                lines.append("  partial: HTTP works but HTTPS failed"
                             + (report.partialError.map { " (\(TerminalText.escape($0, limit: 400)))" } ?? ""))
            } else {
                lines.append("  https: validated")
            }
        }
        if report.dnsHijack {
            lines.append("  dns hijack: probe host names resolved to private or reserved addresses")
        }
        if let canary = report.dnsCanary, canary.resolved == true {
            lines.append("  dns canary: \(TerminalText.escape(canary.name)) (a name that cannot exist) resolved"
                         + (canary.address.map { " to \(TerminalText.escape($0))" } ?? "") + ": the resolver answers every name")
        }
        if report.proxy {
            lines.append("  proxy: answers came through a transparent proxy (Via/X-Cache headers)")
        }
        if let network = report.network, let id = network.id {
            let parts = [("ssid", network.ssid), ("domain", network.domain), ("gateway", network.gatewayMAC), ("dhcp server", network.dhcpServer)]
            lines.append("  network \(id): " + parts.compactMap { name, value in value.map { "\(name) \(TerminalText.escape($0, limit: 80))" } }
                .joined(separator: ", "))
        }
        return lines
    }

    /// "1 h 05 min", "42 min", "30 s".
    static func duration(_ seconds: Int) -> String {
        if seconds >= 3600 { return "\(seconds / 3600) h \(TextHelpers.zeroPadded((seconds % 3600) / 60, width: 2)) min" }
        if seconds >= 60 { return "\(seconds / 60) min" }
        return "\(seconds) s"
    }

    /// Decimal units, as networks sell data: "1.5 MB".
    static func byteCount(_ bytes: Int) -> String {
        let units = ["B", "kB", "MB", "GB", "TB", "PB"]
        var value = Double(bytes)
        var unit = 0
        while value >= 1000 && unit < units.count - 1 {
            value /= 1000
            unit += 1
        }
        return unit == 0 ? "\(bytes) B" : TextHelpers.fixed(value, decimals: 1) + " " + units[unit]
    }
}
