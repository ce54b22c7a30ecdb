import NetprobeCore
import NetprobeHTTP

/// Once `online` is decided, whether HTTPS works too (the `partial` flag) may still be open.
/// An HTTPS probe in flight then gets a bounded grace: three times what the check has taken
/// so far (100 ms at least), since a TLS handshake costs a few round trips more than plain
/// HTTP. One that answers ends the wait at once; one still silent at the end did not answer
/// in several times what HTTP needed, and is reported as a time-out (so `partial` is true),
/// never as "not needed". The verdict itself is fixed before the grace begins.
struct HTTPSGrace {
    static let factor = 3
    static let minimum: Duration = .milliseconds(100)

    private var decidedAt: ContinuousClock.Instant?

    /// Starts the grace the first time online is decided with an HTTPS probe pending.
    mutating func begin(started: ContinuousClock.Instant, runner: ProbeRunner) {
        guard decidedAt == nil else { return }
        let now = ContinuousClock.now
        decidedAt = now
        runner.cancelRemaining(at: now + max(started.duration(to: now) * Self.factor, Self.minimum))
    }

    /// An HTTPS probe cut off by the grace becomes a time-out with what we know: how long it had.
    func settle(_ observation: ProbeObservation, spec: ProbeSpec, endedAt: ContinuousClock.Instant) -> ProbeObservation {
        guard let decidedAt, spec.isHTTPS, observation.transportError?.kind == .cancelled else { return observation }
        var settled = observation
        let waited = decidedAt.duration(to: endedAt).components
        let ms = waited.seconds * 1000 + waited.attoseconds / 1_000_000_000_000_000
        settled.transportError = TransportError(
            kind: .timeout, code: 28,
            message: "no answer \(ms) ms after the HTTP probes had validated (TLS blocked or silently dropped?)")
        return settled
    }
}
