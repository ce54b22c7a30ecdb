#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import NetprobeWire
import NetprobeVerdict

/// `--format text`: a verdict line a person reads first, then the evidence.
public enum TextFormatter {
    public static func format(_ report: Report, palette: Palette = Palette(enabled: false)) -> String {
        var lines: [String] = []
        var word: String
        switch report.verdict {
        case .online: word = palette.green(palette.bold("online"))
        case .portal: word = palette.yellow(palette.bold("portal"))
        case .offline: word = palette.red(palette.bold("offline"))
        }
        // The network's given name (SSID, else domain) goes on the verdict's line: "online on cafe-wifi".
        if let name = report.network?.givenName { word += " on " + TerminalText.escape(name, limit: 80) }
        if let fault = report.fault {
            // The hop that failed, in plain words, then the probes' own reason.
            lines.append("\(word): \(TerminalText.escape(fault.summary)) (\(report.reason.rawValue))")
            lines.append("  fault \(fault.fault.rawValue): \(TerminalText.escape(fault.detail))")
            lines.append("  \(report.reason.rawValue): \(report.reason.meaning)")
        } else {
            lines.append("\(word)  \(report.reason.rawValue): \(report.reason.meaning)")
        }
        lines.append(contentsOf: portalLines(report, palette: palette))
        lines.append(contentsOf: resolverLines(report))
        lines.append(contentsOf: pathVerdictLines(report))
        lines.append("  quorum: \(report.successOperators) operator(s) validated, \(report.portalOperators) intercepted, \(report.quorumRequired) required")
        if !report.proxiesUsed.isEmpty {
            lines.append("  via proxy " + report.proxiesUsed.map { TerminalText.escape($0) }.joined(separator: ", "))
        }
        lines.append(contentsOf: networkLines(report))
        lines.append(contentsOf: pathLines(report.path))
        if !report.probes.isEmpty {
            lines.append("  probes:")
            let width = report.probes.map(\.spec.name.count).max() ?? 0
            for probe in report.probes {
                lines.append("    " + probeLine(probe, width: width, palette: palette))
            }
        }
        lines.append("  took \(TextHelpers.fixed(report.durationMs, decimals: 0)) ms")
        return lines.joined(separator: "\n")
    }

    /// What the resolvers had to do with the answer: which to use when the configured ones are
    /// blocked, where the portal was found, or why asking the link's own did not help.
    static func resolverLines(_ report: Report) -> [String] {
        let resolvers = report.resolvers
        let server = resolvers.linkServer.map { TerminalText.escape($0) } ?? ""
        let announced = "the network's resolver \(server)" + (resolvers.linkSource.map { " (announced via \($0)"
            + (resolvers.linkInterface.map { " on \(TerminalText.escape($0))" } ?? "") + ")" } ?? "")
        let configured = report.path.dns.servers.isEmpty ? "none" : report.path.dns.servers.map { TerminalText.escape($0) }.joined(separator: " ")
        if report.reason == .resolverBlocked {
            return ["  dns: the configured resolvers (\(configured)) do not answer on this network; \(announced) does:",
                    "       use it for this network, or log into its portal first if it has one"]
        }
        if resolvers.used == .link {
            return ["  dns: found through \(announced); the configured resolvers (\(configured)) do not answer here:",
                    "       log in first, then they may work again"]
        }
        if resolvers.linkAsked, let error = resolvers.linkError {
            return ["  dns: the network's own resolvers were asked too: \(TerminalText.escape(error))"]
        }
        return []
    }

    /// With several paths (--all-paths), one line each: `path ipv6 via eth0: offline (timeout)`.
    /// A path whose verdict differs from the overall one is marked, so the news stands out.
    static func pathVerdictLines(_ report: Report) -> [String] {
        guard report.paths.count > 1 else { return [] }
        return report.paths.map { path in
            let conclusion = path.conclusion
            var line = "  path \(path.family?.rawValue ?? "any") via \(TerminalText.escape(path.interface ?? "-"))"
                + (path.isDefault ? " (default)" : "") + ": \(conclusion.verdict.rawValue) (\(conclusion.reason.rawValue))"
            if let fault = path.fault { line += ", " + TerminalText.escape(fault.summary) }
            if let name = path.network?.givenName { line += ", on " + TerminalText.escape(name, limit: 80) }
            if let url = conclusion.portal?.url { line += ", log in at " + TerminalText.escape(url, limit: 200) }
            if conclusion.verdict != report.verdict { line += "  <- differs" }
            return line
        }
    }

    static func probeLine(_ probe: ProbeEvidence, width: Int, palette: Palette) -> String {
        let name = TextHelpers.padded(probe.spec.name, to: width)
        let mark: String
        switch probe.outcome {
        case .success: mark = palette.green("ok     ")
        case .portal: mark = palette.yellow("portal ")
        case .failure: mark = palette.red("fail   ")
        case .skipped: mark = palette.dim("skipped")
        }
        var detail: [String] = []
        if let observation = probe.observation, probe.outcome != .skipped {
            if let status = observation.status { detail.append("HTTP \(status)") }
            if let errorClass = probe.errorClass { detail.append(errorClass.rawValue) }
            if let location = observation.header("location") { detail.append("-> " + TerminalText.escape(location, limit: 160)) }
            if let error = observation.transportError { detail.append(TerminalText.escape(error.message, limit: 160)) }
            detail.append(TextHelpers.fixed(observation.timings.totalMs, decimals: 0) + " ms")
        } else if let reason = probe.skipReason {
            switch reason {
            case .gate: detail.append("not sent: the path is down")
            case .decided: detail.append("not needed: verdict already decided")
            case .filtered: detail.append("not sent: its family or interface is excluded (-4/-6/-i) or has no default route")
            }
        }
        return "\(mark) \(name)  \(detail.joined(separator: ", "))"
    }

    static func pathLines(_ path: PathSnapshot) -> [String] {
        var lines: [String] = []
        let links = path.interfaces.filter { $0.type != .loopback }
        for link in links {
            let state = link.usable ? "up" : (link.up ? "no carrier" : "down")
            let addresses = link.addresses.filter { $0.scope != .host }.map { "\($0.address)/\($0.prefixLength)" }
            lines.append("  link: \(TerminalText.escape(link.name)) (\(link.type.rawValue)\(link.expensive ? ", expensive" : "")) \(state)"
                + (addresses.isEmpty ? "" : " " + addresses.joined(separator: " ")))
        }
        if links.isEmpty { lines.append("  link: none besides loopback") }
        for route in path.defaultRoutes {
            lines.append("  route: default (\(route.family.rawValue))" + (route.gateway.map { " via \($0)" } ?? "")
                + (route.interface.map { " dev \(TerminalText.escape($0))" } ?? "") + " metric \(route.metric)"
                + (route.table == DefaultRoute.mainTable ? "" : " table \(route.table)"))
        }
        if path.defaultRoutes.isEmpty { lines.append("  route: no default route") }
        for route in path.kernelRoutes {
            lines.append("  traffic (\(route.family.rawValue)): " + kernelRouteText(route))
        }
        let servers = path.dns.servers.isEmpty ? "none" : path.dns.servers.map { TerminalText.escape($0) }.joined(separator: " ")
        let upstreams = path.dns.upstreams.map { TerminalText.escape($0) }.joined(separator: " ")
        let stub = !path.dns.localStub ? "" : upstreams.isEmpty ? " (local stub resolver)"
            : " (local stub resolver, forwarding to \(upstreams))"
        lines.append("  dns: \(servers)\(stub)")
        if let nat64 = path.nat64 {
            lines.append("  nat64: \(nat64.prefix) (IPv6 only; DNS64 at \(TerminalText.escape(nat64.resolver)))")
        }
        return lines
    }

    /// Where the kernel sends the family's ordinary traffic, as `ip route get` says it.
    static func kernelRouteText(_ route: RouteAnswer) -> String {
        if let refusal = route.refusal {
            switch refusal {
            case .noRoute: return "no route"
            case .unreachable: return "unreachable route"
            case .blackhole: return "blackhole route"
            case .prohibit: return "prohibit route"
            case .other: return "no way out"
            }
        }
        guard let interface = route.interface else { return "no output device" }
        return "dev \(TerminalText.escape(interface))" + (route.gateway.map { " via \($0)" } ?? "")
            + (route.source.map { " src \($0)" } ?? "") + (route.table.map { " table \($0)" } ?? "")
    }

    /// `netprobe path` in text.
    public static func format(_ path: PathSnapshot) -> String {
        pathLines(path).map { String($0.dropFirst(2)) }.joined(separator: "\n")
    }
}
