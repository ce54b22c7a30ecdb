#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import NetprobeWire
import NetprobeVerdict

/// `--format prometheus`: the text exposition format, for node_exporter's textfile
/// collector. Names follow blackbox_exporter where the meaning is the same.
public enum PrometheusFormatter {
    public static func format(_ report: Report) -> String {
        var out = MetricWriter()
        out.gauge("netprobe_success", "1 when the verdict is online, else 0.", [([], report.verdict == .online ? 1 : 0)])
        out.gauge("netprobe_verdict", "1 for the current verdict, 0 for the others.",
                  [Verdict.online, .portal, .offline].map { ([("verdict", $0.rawValue)], report.verdict == $0 ? 1 : 0) })
        out.gauge("netprobe_reason_info", "The reason code of the current verdict (always 1).", [([("verdict", report.verdict.rawValue), ("reason", report.reason.rawValue)], 1)])
        // Every value always present (1 for the current one while offline, else 0), so an alert
        // or a dashboard never meets a series that vanished.
        out.gauge("netprobe_fault", "1 for the hop that failed while offline, 0 for the others (all 0 when online, behind a portal, or when the evidence does not tell).",
                  Fault.allCases.map { ([("fault", $0.rawValue)], report.verdict == .offline && report.fault?.fault == $0 ? 1 : 0) })
        out.gauge("netprobe_duration_seconds", "Wall time of the whole check.", [([], report.durationMs / 1000)])
        out.gauge("netprobe_check_bytes", "What the check put on the wire: its connections' TCP payload (TLS included) and the DNS netprobe sent itself.",
                  [([("direction", "sent")], Double(report.wire.sent)), ([("direction", "received")], Double(report.wire.received))])
        out.gauge("netprobe_quorum_required", "Independent operators required to validate.", [([], Double(report.quorumRequired))])
        out.gauge("netprobe_quorum_operators", "Operators that validated (success) or showed interception (portal).",
                  [([("outcome", "success")], Double(report.successOperators)), ([("outcome", "portal")], Double(report.portalOperators))])
        if let partial = report.partial {
            out.gauge("netprobe_partial", "1 when plain HTTP validated but HTTPS to the probe operators failed.", [([], partial ? 1 : 0)])
        }
        if let portal = report.portal {
            // The host only: a login URL's query carries per-client, per-session tokens (openNDS's
            // fas=), and each would be a new series of every machine of a fleet.
            out.gauge("netprobe_portal_info", "The captive portal's login host when known, and how it was found (always 1).",
                      [([("host", portal.url.flatMap { URLRules.httpHost($0, strict: false) } ?? ""),
                         ("source", portal.source ?? "")], 1)])
        }
        portalMetrics(report, into: &out)
        pathMetrics(report, into: &out)
        let probes = report.probes
        out.gauge("netprobe_probe_success", "1 when the probe answered exactly as expected.",
                  probes.map { ([("probe", $0.spec.name)], $0.outcome == .success ? 1 : 0) })
        // A fixed set of series per probe (its value says which holds), never a label that moves
        // with each failure kind: the error class is in the JSON, the dominant one in the reason.
        out.gauge("netprobe_probe_outcome", "1 for the probe's outcome, 0 for the other three.",
                  probes.flatMap { probe in
                      ProbeOutcome.allCases.map { ([("probe", probe.spec.name), ("outcome", $0.rawValue)], probe.outcome == $0 ? 1 : 0) }
                  })
        out.gauge("netprobe_probe_http_status_code", "HTTP status of the probe's answer (0 when none).",
                  probes.filter { $0.outcome != .skipped }.map { ([("probe", $0.spec.name)], Double($0.observation?.status ?? 0)) })
        out.gauge("netprobe_probe_duration_seconds", "Duration of each phase of the probe's request.",
                  probes.filter { $0.outcome != .skipped }.flatMap(phases))
        return out.text
    }

    /// One series per path probed, labelled by interface and family ("" when the system chose).
    static func pathMetrics(_ report: Report, into out: inout MetricWriter) {
        func labels(_ path: PathReport) -> [(String, String)] {
            [("interface", path.interface ?? ""), ("family", path.family?.rawValue ?? "")]
        }
        let paths = report.paths
        out.gauge("netprobe_path_success", "1 when the path's verdict is online, else 0.",
                  paths.map { (labels($0), $0.conclusion.verdict == .online ? 1 : 0) })
        out.gauge("netprobe_path_verdict", "1 for the path's verdict, 0 for the others.",
                  paths.flatMap { path in
                      [Verdict.online, .portal, .offline].map { (labels(path) + [("verdict", $0.rawValue)], path.conclusion.verdict == $0 ? 1 : 0) }
                  })
        out.gauge("netprobe_path_reason_info", "The reason code of the path's verdict (always 1).",
                  paths.map { (labels($0) + [("verdict", $0.conclusion.verdict.rawValue), ("reason", $0.conclusion.reason.rawValue)], 1) })
        out.gauge("netprobe_path_default", "1 when the kernel routes the machine's traffic of the path's family through it.",
                  paths.map { (labels($0), $0.isDefault ? 1 : 0) })
        // The opaque id only: an SSID, a domain or a MAC would tell more than a dashboard needs.
        out.gauge("netprobe_network_info", "The network each path is on, by its opaque id (always 1; absent when no part of it is known).",
                  paths.compactMap { path in path.network?.id.map { (labels(path) + [("id", $0)], 1) } })
    }

    /// Per-phase (not cumulative) durations, as blackbox_exporter reports them.
    static func phases(_ evidence: ProbeEvidence) -> [([(String, String)], Double)] {
        guard let timings = evidence.observation?.timings else { return [] }
        let dns = timings.dnsMs ?? 0
        let connect = max(timings.connectMs ?? dns, dns)
        let tls = max(timings.tlsMs ?? connect, connect)
        let firstByte = max(timings.firstByteMs ?? tls, tls)
        let total = max(timings.totalMs, firstByte)
        let values = [("resolve", dns), ("connect", connect - dns), ("tls", tls - connect),
                      ("processing", firstByte - tls), ("transfer", total - firstByte)]
        return values.map { ([("probe", evidence.spec.name), ("phase", $0.0)], $0.1 / 1000) }
    }
}

struct MetricWriter {
    var text = ""

    mutating func gauge(_ name: String, _ help: String, _ samples: [([(String, String)], Double)]) {
        metric(name, type: "gauge", help, samples)
    }

    /// A count that only grows while the process runs (a restart starts it at 0, which Prometheus's
    /// rate() understands); the name ends in _total.
    mutating func counter(_ name: String, _ help: String, _ samples: [([(String, String)], Double)]) {
        metric(name, type: "counter", help, samples)
    }

    private mutating func metric(_ name: String, type: String, _ help: String, _ samples: [([(String, String)], Double)]) {
        guard !samples.isEmpty else { return }
        text += "# HELP \(name) \(help)\n# TYPE \(name) \(type)\n"
        for (labels, value) in samples {
            let rendered = labels.isEmpty ? "" : "{" + labels.map { "\($0.0)=\"\(Self.escape($0.1))\"" }.joined(separator: ",") + "}"
            text += "\(name)\(rendered) \(Self.number(value))\n"
        }
    }

    /// Label values may be a portal's URL or a probe's name: controls filtered first (`NetworkText`).
    static func escape(_ value: String) -> String {
        var out = ""
        for character in NetworkText.labelValue(value) {
            switch character {
            case "\\": out += "\\\\"
            case "\"": out += "\\\""
            case "\n": out += "\\n"
            default: out.append(character)
            }
        }
        return out
    }

    /// The exposition format spells the special values NaN, +Inf and -Inf (printf's "nan"/"inf" are not it).
    static func number(_ value: Double) -> String {
        if value.isNaN { return "NaN" }
        if value.isInfinite { return value > 0 ? "+Inf" : "-Inf" }
        if value.rounded() == value && abs(value) < 1e15 { return String(Int(value)) }
        return TextHelpers.fixed(value, decimals: 6)
    }
}
