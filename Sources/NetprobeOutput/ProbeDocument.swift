import NetprobeWire
import NetprobeVerdict
/// One probe's evidence in the JSON report.
/// Header values, error texts and names may carry what a server sent: controls filtered (`NetworkText`).
enum ProbeDocument {
    static func json(_ evidence: ProbeEvidence) -> JSONOut {
        let observation = evidence.observation
        let error = observation?.transportError.flatMap { $0.kind == .cancelled ? nil : $0.message }
        return .object([
            "body_bytes": .int(observation?.body.count),
            "bytes_received": .int(observation?.bytesReceived),
            "bytes_sent": .int(observation?.bytesSent),
            "body_matched": .bool(evidence.bodyMatched),
            "body_truncated": .bool(observation?.bodyTruncated),
            "dns_hijack": .bool(Classifier.dnsHijack(evidence)),
            "duration_ms": .number(observation.map { Rounding.ms($0.timings.totalMs) }),
            "error": .string(NetworkText.jsonValue(error)),
            "error_class": .string(evidence.errorClass?.rawValue),
            "headers": observation.map(headers) ?? .null,
            "interface": .string(NetworkText.jsonValue(observation?.interface)),
            "name": .string(NetworkText.jsonValue(evidence.spec.name)),
            "operator": .string(NetworkText.jsonValue(evidence.spec.operatorName)),
            "outcome": .string(evidence.outcome.rawValue),
            "proxy": .string(observation?.proxy),
            "proxy_auth_realm": .string(NetworkText.jsonValue(observation?.proxyAuthRealm)),
            "remote_address": .string(observation?.remoteAddress),
            "resolver": .string(observation?.resolver),
            "skip_reason": .string(evidence.skipReason?.rawValue),
            "status": .int(observation?.status),
            "timings": observation.map { timings($0.timings) } ?? .null,
            "url": .string(NetworkText.jsonValue(evidence.spec.url)),
        ])
    }

    static func headers(_ observation: ProbeObservation) -> JSONOut {
        .object([
            "content_length": .string(NetworkText.jsonValue(observation.header("content-length"))),
            "content_type": .string(NetworkText.jsonValue(observation.header("content-type"))),
            "location": .string(NetworkText.jsonValue(observation.header("location"))),
            "via": .string(NetworkText.jsonValue(observation.header("via"))),
        ])
    }

    static func timings(_ timings: ProbeTimings) -> JSONOut {
        .object([
            "connect_ms": .number(Rounding.ms(timings.connectMs)),
            "dns_ms": .number(Rounding.ms(timings.dnsMs)),
            "first_byte_ms": .number(Rounding.ms(timings.firstByteMs)),
            "tls_ms": .number(Rounding.ms(timings.tlsMs)),
            "total_ms": .number(Rounding.ms(timings.totalMs)),
        ])
    }
}
