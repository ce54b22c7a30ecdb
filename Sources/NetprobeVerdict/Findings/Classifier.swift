#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import NetprobeWire

/// Turns what a probe saw into evidence, the way Firefox, Android and ChromeOS read
/// their probes: the expected answer is success; a redirect, a 511 or other content
/// is a portal speaking; errors and server faults are failures (a dead endpoint, not a portal).
public enum Classifier {
    public static func classify(_ observation: ProbeObservation, for spec: ProbeSpec) -> ProbeEvidence {
        func evidence(_ outcome: ProbeOutcome, _ errorClass: ErrorClass?, matched: Bool? = nil) -> ProbeEvidence {
            ProbeEvidence(spec: spec, outcome: outcome, errorClass: errorClass, bodyMatched: matched, observation: observation)
        }
        if let error = observation.transportError {
            if error.kind == .cancelled {
                return ProbeEvidence(spec: spec, outcome: .skipped, skipReason: .decided, observation: observation)
            }
            if let proxied = proxyAnswer(observation) { return evidence(proxied.0, proxied.1) }
            return evidence(.failure, errorClass(for: error.kind))
        }
        if let proxied = proxyAnswer(observation) { return evidence(proxied.0, proxied.1) }
        guard let status = observation.status else {
            return evidence(.failure, .proto)
        }
        let matched = bodyMatches(observation, spec.expect)
        if spec.expect.statuses.contains(status) {
            if headerProvesSuccess(observation, spec.expect) { return evidence(.success, nil, matched: matched) }
            if matched ?? true { return evidence(.success, nil, matched: matched) }
        }
        switch status {
        case 511:
            return evidence(.portal, .authRequired, matched: matched)
        case 300...399:
            return evidence(.portal, .redirect, matched: matched)
        case 200...299:
            // Android's lesson: a 2xx with no body where something else was expected is a
            // broken proxy or middlebox, not a login page.
            if observation.body.isEmpty && !observation.bodyTruncated {
                return evidence(.failure, .emptyBody, matched: matched)
            }
            return evidence(.portal, .wrongContent, matched: matched)
        case 400...499:
            return evidence(.failure, .http4xx, matched: matched)
        case 500...599:
            return evidence(.failure, .http5xx, matched: matched)
        default:
            return evidence(.failure, .proto, matched: matched)
        }
    }

    static func errorClass(for kind: TransportErrorKind) -> ErrorClass {
        switch kind {
        case .dns: return .dns
        case .refused: return .refused
        case .unreachable: return .unreachable
        case .timeout: return .timeout
        case .tls: return .tls
        case .reset: return .reset
        case .proto: return .proto
        case .proxy: return .proxyFailed
        case .cancelled, .other: return .other
        }
    }

    /// What a proxy we chose said for itself, before the far side could answer: a 407 is
    /// its request for credentials (not a portal, not the far side's 4xx); a CONNECT it
    /// answered with a redirect or a 511 is a guest network's portal speaking, like any other.
    /// A redirect or 511 to a plain GET is the request's own answer and is judged as usual.
    static func proxyAnswer(_ observation: ProbeObservation) -> (ProbeOutcome, ErrorClass)? {
        if observation.proxyAuthRequired { return (.failure, .proxyAuthRequired) }
        guard observation.proxy != nil, observation.transportError?.kind == .proxy,
              let connect = observation.proxyConnectStatus else { return nil }
        if connect == 511 { return (.portal, .authRequired) }
        if (300...399).contains(connect) { return (.portal, .redirect) }
        return nil
    }

    /// nil when the expectation does not judge the body.
    static func bodyMatches(_ observation: ProbeObservation, _ expect: Expectation) -> Bool? {
        guard let rule = expect.body else { return nil }
        if rule.needsWholeBody && observation.bodyTruncated { return false }
        return rule.matches(observation.body)
    }

    static func headerProvesSuccess(_ observation: ProbeObservation, _ expect: Expectation) -> Bool {
        guard let rule = expect.successHeader, let value = observation.header(rule.name) else { return false }
        return value.trimmingWhitespaces().lowercased() == rule.value.lowercased()
    }
}

extension Classifier {
    /// DNS hijack evidence (ProbeObservation.remoteAddress): true when the probe's host *name*
    /// led to an interception address (`AddressClass.isInterception`: private, loopback,
    /// link-local, CGNAT, ULA, unspecified) and the probe did not answer correctly; false when
    /// the address is fine, the probe succeeded (a correct answer proves the endpoint, wherever
    /// it lives), or the URL names an IP literal or localhost (no DNS involved); nil when no
    /// address is known (never sent, or it failed before connecting).
    public static func dnsHijack(_ evidence: ProbeEvidence) -> Bool? {
        evidence.dnsHijack
    }

    /// The computation behind `dnsHijack(_:)`, done once as the evidence is made.
    static func dnsHijack(spec: ProbeSpec, outcome: ProbeOutcome, observation: ProbeObservation?) -> Bool? {
        guard outcome != .skipped, let address = observation?.remoteAddress,
              let addressClass = AddressClass.of(address) else { return nil }
        guard outcome != .success, let host = URLRules.httpHost(spec.url) else { return false }
        let bare = host.hasPrefix("[") ? String(host.dropFirst().dropLast()) : host
        if AddressClass.of(bare) != nil || bare == "localhost" || bare.hasSuffix(".localhost") { return false }
        return addressClass.isInterception
    }
}
