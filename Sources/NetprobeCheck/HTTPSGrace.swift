import NetprobeWire
import NetprobeVerdict
import NetprobeOutput
import NetprobeSystem
import NetprobeNetwork

/// Once `online` is decided, whether HTTPS works too (the `partial` flag) may still be open.
/// An HTTPS probe in flight then gets a bounded grace of its own: three times what the check
/// has taken so far (100 ms at least), since a TLS handshake costs a few round trips more than
/// plain HTTP. One that answers ends the wait at once; one still silent at the end did not
/// answer in several times what HTTP needed: its transfer ends as a time-out of that length
/// (so `partial` is true), never as "not needed". The verdict is fixed before the grace begins.
enum HTTPSGrace {
    static let factor = 3
    static let minimum: Duration = .milliseconds(100)

    static func length(started: ContinuousClock.Instant, now: ContinuousClock.Instant) -> Duration {
        max(started.duration(to: now) * factor, minimum)
    }

    /// How an HTTPS transfer still silent at the end of its grace is reported.
    static func expired(after grace: Duration) -> TransportError {
        TransportError(kind: .timeout, code: 28,
                       message: "no answer \(grace.wholeMilliseconds) ms after the HTTP probes had validated (TLS blocked or silently dropped?)")
    }
}

/// The mirror case: certificate-verified HTTPS has answered correctly for a quorum of operators,
/// so the network is online unless plain HTTP still shows a portal to a quorum (the rule that
/// outranks it). Plain-HTTP probes in flight then get the same bounded grace: a portal answers
/// plain HTTP in fewer round trips than a TLS handshake and request take, so one that intercepts
/// port 80 has answered well within three times what the check has taken. One still silent at
/// the end (port 80 dropped) ends as a time-out of that length, and online is final: a network
/// that passes only HTTPS is not held up for the whole probe time-out.
enum HTTPGrace {
    static func length(started: ContinuousClock.Instant, now: ContinuousClock.Instant) -> Duration {
        HTTPSGrace.length(started: started, now: now)
    }

    /// How a plain-HTTP transfer still silent at the end of its grace is reported.
    static func expired(after grace: Duration) -> TransportError {
        TransportError(kind: .timeout, code: 28,
                       message: "no answer \(grace.wholeMilliseconds) ms after HTTPS had validated for a quorum of operators (port 80 blocked or silently dropped?)")
    }
}
