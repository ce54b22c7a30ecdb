import NetprobeWire
/// Judgement of one probe: did it prove the Internet, show a portal, or fail?
public enum ProbeOutcome: String, Sendable, CaseIterable {
    case success, portal, failure, skipped
}

public enum ErrorClass: String, Sendable {
    case dns, refused, unreachable, timeout, tls, reset
    case proto = "protocol"
    case http4xx = "http-4xx"
    case http5xx = "http-5xx"
    case wrongContent = "wrong-content"
    case emptyBody = "empty-body"
    case redirect
    case authRequired = "auth-required"
    /// The explicit proxy answered 407: it wants credentials (not a portal).
    case proxyAuthRequired = "proxy-auth-required"
    /// The explicit proxy could not be reached or used (name, connection, CONNECT refused).
    case proxyFailed = "proxy-failed"
    case other
}

/// Why a probe has outcome `skipped`.
public enum SkipReason: String, Sendable {
    /// The path gate decided `offline` before anything was sent.
    case gate
    /// The verdict could no longer change; the transfer was not needed.
    case decided
    /// `-4`/`-6`/`-i` excluded the probe.
    case filtered
}

public struct ProbeEvidence: Sendable, Equatable {
    public let spec: ProbeSpec
    public let outcome: ProbeOutcome
    public let errorClass: ErrorClass?
    public let bodyMatched: Bool?
    public let skipReason: SkipReason?
    public let observation: ProbeObservation?
    /// `Classifier.dnsHijack`, worked out once here: the verdict is re-evaluated after every
    /// result, over every result, so anything derived per probe there would cost O(n^2).
    public let dnsHijack: Bool?
    /// `NetworkInsights.proxySigns` of the observation, worked out once for the same reason.
    public let proxySigns: Set<String>

    public init(spec: ProbeSpec, outcome: ProbeOutcome, errorClass: ErrorClass? = nil, bodyMatched: Bool? = nil,
                skipReason: SkipReason? = nil, observation: ProbeObservation? = nil) {
        self.spec = spec
        self.outcome = outcome
        self.errorClass = errorClass
        self.bodyMatched = bodyMatched
        self.skipReason = skipReason
        self.observation = observation
        self.dnsHijack = Classifier.dnsHijack(spec: spec, outcome: outcome, observation: observation)
        self.proxySigns = observation.map(NetworkInsights.proxySigns) ?? []
    }

    /// The same evidence, its observation naming the device the probe's traffic left through.
    public func routed(through device: String) -> ProbeEvidence {
        guard var seen = observation else { return self }
        seen.interface = device
        return ProbeEvidence(spec: spec, outcome: outcome, errorClass: errorClass, bodyMatched: bodyMatched,
                             skipReason: skipReason, observation: seen)
    }

    public static func skipped(_ spec: ProbeSpec, because reason: SkipReason) -> ProbeEvidence {
        ProbeEvidence(spec: spec, outcome: .skipped, skipReason: reason)
    }
}
