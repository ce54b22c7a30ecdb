import NetprobeWire
import NetprobeVerdict
import NetprobeNetwork

/// One path's part of a round: its plan and findings, the transfers still running, and what
/// the round has scheduled for it, in three parts: the waves (`WavePlan`), the graces
/// (`HTTPSGrace`, `HTTPGrace`, the API's and the canary's) and the held canary.
struct RoundPathState {
    var plan: PathPlan
    var findings: PathFindings
    var running: Set<String> = []
    var settledAt: ContinuousClock.Instant?
    var waves = Waves()
    var graces = Graces()
    var canary = HeldCanary()

    /// The later waves and the hedge that sends them.
    struct Waves {
        /// Probes of later waves not sent yet (`WavePlan`), or sent only by the hedge (the first
        /// wave was slow): the plan may still let them go once the first wave has settled the
        /// path, as it would have had they waited. Still in `findings.pending`.
        var held: [ProbeSpec] = []
        /// Held probes the wave plan decided never to send (their cancellation is on its way).
        var dropped: Set<String> = []
        /// The path sends its probes in waves at all.
        var hedged = false
        /// When the runner sends whatever is still held (the hedge); nil: not scheduled.
        var hedgeAt: ContinuousClock.Instant?
        /// The hedge has passed: the runner has sent what was held then.
        var hedgeSent = false
        /// When the hedge sent them, and how long the first wave's HTTPS was waited for when
        /// the hedge was its grace (`WavePlan.Step.httpsWait`).
        var hedgeSentAt: ContinuousClock.Instant?
        var httpsWait: Duration?
        /// When the first probe answered, and the first HTTPS probe validated, since the start.
        var firstAnswer: Duration?
        var firstHTTPSSuccess: Duration?

        /// Request names of the probes never sent: held, or dropped before they were.
        func unsent(_ index: Int) -> Set<String> {
            Set(held.map { "\(index)/\($0.name)" }).union(dropped.map { "\(index)/\($0)" })
        }
    }

    /// The bounded waits a conclusion grants what is still running, each given once.
    struct Graces {
        var httpsGraceGiven = false
        /// When HTTPS still running on an online path is ended, its grace, and how (`HTTPSGrace`).
        var httpsGraceEnd: (instant: ContinuousClock.Instant, length: Duration, error: TransportError)?
        /// The error silent plain-HTTP probes end with when their grace runs out (`HTTPGrace`).
        var httpGraceExpiry: TransportError?
        /// A probe has ended with it: the rest of the silent ones are ending with it too, now.
        var httpGraceOver = false
        var apiGraceGiven = false
        var canaryGraceGiven = false
    }

    /// Waves: the canary goes with the later wave (or the hedge), or when only its answer could
    /// still change the reason; a path the first wave settles never sends it.
    struct HeldCanary {
        var held = false
        /// When it was let go (nil: held still).
        var release: ContinuousClock.Instant?
        /// The path was final before the held canary went: it is never sent.
        var dropped = false
    }
}
