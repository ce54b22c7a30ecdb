#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// One probe's evidence in the JSON report.
struct ProbeDocument: Encodable {
    var evidence: ProbeEvidence
    init(_ evidence: ProbeEvidence) { self.evidence = evidence }

    enum CodingKeys: String, CodingKey {
        case name, url, outcome, status, headers, timings, error
        case operatorName = "operator"
        case errorClass = "error_class"
        case bodyMatched = "body_matched"
        case bodyBytes = "body_bytes"
        case bodyTruncated = "body_truncated"
        case remoteAddress = "remote_address"
        case skipReason = "skip_reason"
        case durationMs = "duration_ms"
        case dnsHijack = "dns_hijack"
        case proxy
        case proxyAuthRealm = "proxy_auth_realm"
    }

    enum HeaderKeys: String, CodingKey {
        case location, via
        case contentType = "content_type"
        case contentLength = "content_length"
    }

    enum TimingKeys: String, CodingKey {
        case dnsMs = "dns_ms"
        case connectMs = "connect_ms"
        case tlsMs = "tls_ms"
        case firstByteMs = "first_byte_ms"
        case totalMs = "total_ms"
    }

    /// Header values, error texts and names may carry what a server sent: controls filtered (`NetworkText`).
    func encode(to encoder: Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        let observation = evidence.observation
        try container.encode(NetworkText.jsonValue(evidence.spec.name), forKey: .name)
        try container.encode(NetworkText.jsonValue(evidence.spec.url), forKey: .url)
        try container.encode(NetworkText.jsonValue(evidence.spec.operatorName), forKey: .operatorName)
        try container.encode(evidence.outcome, forKey: .outcome)
        try container.encode(evidence.errorClass, forKey: .errorClass)
        try container.encode(evidence.skipReason, forKey: .skipReason)
        try container.encode(observation?.status, forKey: .status)
        try container.encode(evidence.bodyMatched, forKey: .bodyMatched)
        try container.encode(observation.map { $0.body.count }, forKey: .bodyBytes)
        try container.encode(observation.map(\.bodyTruncated), forKey: .bodyTruncated)
        try container.encode(observation?.remoteAddress, forKey: .remoteAddress)
        try container.encode(Classifier.dnsHijack(evidence), forKey: .dnsHijack)
        try container.encode(observation.map { Rounding.ms($0.timings.totalMs) }, forKey: .durationMs)
        let error = observation?.transportError.flatMap { $0.kind == .cancelled ? nil : $0.message }
        try container.encode(NetworkText.jsonValue(error), forKey: .error)
        try container.encode(observation?.proxy, forKey: .proxy)
        try container.encode(NetworkText.jsonValue(observation?.proxyAuthRealm), forKey: .proxyAuthRealm)
        if let observation {
            var headers = container.nestedContainer(keyedBy: HeaderKeys.self, forKey: .headers)
            try headers.encode(NetworkText.jsonValue(observation.header("location")), forKey: .location)
            try headers.encode(NetworkText.jsonValue(observation.header("content-type")), forKey: .contentType)
            try headers.encode(NetworkText.jsonValue(observation.header("content-length")), forKey: .contentLength)
            try headers.encode(NetworkText.jsonValue(observation.header("via")), forKey: .via)
            var timings = container.nestedContainer(keyedBy: TimingKeys.self, forKey: .timings)
            try timings.encode(Rounding.ms(observation.timings.dnsMs), forKey: .dnsMs)
            try timings.encode(Rounding.ms(observation.timings.connectMs), forKey: .connectMs)
            try timings.encode(Rounding.ms(observation.timings.tlsMs), forKey: .tlsMs)
            try timings.encode(Rounding.ms(observation.timings.firstByteMs), forKey: .firstByteMs)
            try timings.encode(Rounding.ms(observation.timings.totalMs), forKey: .totalMs)
        } else {
            try container.encodeNil(forKey: .headers)
            try container.encodeNil(forKey: .timings)
        }
    }
}
