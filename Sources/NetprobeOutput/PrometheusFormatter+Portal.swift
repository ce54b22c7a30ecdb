import NetprobeWire
import NetprobeVerdict
extension PrometheusFormatter {
    /// The Captive Portal API's session limits (only when it gave them), the API's word, and
    /// what else the network does.
    static func portalMetrics(_ report: Report, into out: inout MetricWriter) {
        if let answer = report.capport?.answer {
            out.gauge("netprobe_capport_captive", "1 when the Captive Portal API (RFC 8908) says this client is captive.",
                      [([], answer.captive ? 1 : 0)])
            if let seconds = answer.secondsRemaining {
                out.gauge("netprobe_portal_seconds_remaining", "Seconds left in the portal session, from the Captive Portal API.",
                          [([], Double(seconds))])
            }
            if let bytes = answer.bytesRemaining {
                out.gauge("netprobe_portal_bytes_remaining", "Bytes left in the portal session, from the Captive Portal API.",
                          [([], Double(bytes))])
            }
        }
        out.gauge("netprobe_dns_hijack", "1 when a probe host name resolved to a private or reserved address.",
                  [([], report.dnsHijack ? 1 : 0)])
        out.gauge("netprobe_proxy", "1 when correct answers came through a transparent proxy.", [([], report.proxy ? 1 : 0)])
    }
}
