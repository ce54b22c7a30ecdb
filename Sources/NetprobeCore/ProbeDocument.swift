/// One probe's evidence in the JSON report.
/// Header values, error texts and names may carry what a server sent: controls filtered (`NetworkText`).
enum ProbeDocument {
    static func json(_ evidence: ProbeEvidence) -> JSONOut {
        let observation = evidence.observation
        let error = observation?.transportError.flatMap { $0.kind == .cancelled ? nil : $0.message }
        return .object([
            "name": .string(NetworkText.jsonValue(evidence.spec.name)),
            "url": .string(NetworkText.jsonValue(evidence.spec.url)),
            "operator": .string(NetworkText.jsonValue(evidence.spec.operatorName)),
            "outcome": .string(evidence.outcome.rawValue),
            "error_class": .string(evidence.errorClass?.rawValue),
            "skip_reason": .string(evidence.skipReason?.rawValue),
            "status": .int(observation?.status),
            "body_matched": .bool(evidence.bodyMatched),
            "body_bytes": .int(observation?.body.count),
            "body_truncated": .bool(observation?.bodyTruncated),
            "remote_address": .string(observation?.remoteAddress),
            "dns_hijack": .bool(Classifier.dnsHijack(evidence)),
            "duration_ms": .number(observation.map { Rounding.ms($0.timings.totalMs) }),
            "error": .string(NetworkText.jsonValue(error)),
            "proxy": .string(observation?.proxy),
            "proxy_auth_realm": .string(NetworkText.jsonValue(observation?.proxyAuthRealm)),
            "headers": observation.map(headers) ?? .null,
            "timings": observation.map { timings($0.timings) } ?? .null,
        ])
    }

    static func headers(_ observation: ProbeObservation) -> JSONOut {
        .object([
            "location": .string(NetworkText.jsonValue(observation.header("location"))),
            "content_type": .string(NetworkText.jsonValue(observation.header("content-type"))),
            "content_length": .string(NetworkText.jsonValue(observation.header("content-length"))),
            "via": .string(NetworkText.jsonValue(observation.header("via"))),
        ])
    }

    static func timings(_ timings: ProbeTimings) -> JSONOut {
        .object([
            "dns_ms": .number(Rounding.ms(timings.dnsMs)),
            "connect_ms": .number(Rounding.ms(timings.connectMs)),
            "tls_ms": .number(Rounding.ms(timings.tlsMs)),
            "first_byte_ms": .number(Rounding.ms(timings.firstByteMs)),
            "total_ms": .number(Rounding.ms(timings.totalMs)),
        ])
    }
}
