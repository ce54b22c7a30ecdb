import NetprobeWire

/// Which probes a path sends first, and when the rest follow: pure, so its rules are a table.
///
/// The first wave is what settles a healthy network: plain HTTP to a quorum of operators and
/// one HTTPS probe of another operator, drawn anew for each check (`FirstWaves`), so no portal
/// can know which hosts to let through. It settles the path only when every probe in it
/// validated. The rest are held back and sent when a probe of the first wave fails, is refused
/// or shows interception (everything, at once: the verdict is then reached exactly as if it
/// had all gone at the start), and when the first wave is slow (the hedge: also how a network
/// that drops port 80 gets the HTTPS operators for its quorum). Once the first wave has made
/// the path online, the held probes are never sent; until then they count as pending, so the
/// verdict cannot be final early.
public enum WavePlan {
    /// The hedge: held probes go out this long after the first wave's first answer, twice the
    /// time that answer took (a healthy network answers the rest of the wave within it), never
    /// sooner than `hedgeFloor` after the start nor later than `hedgeCeiling` (nothing answered).
    public static let hedgeFloor: Duration = .milliseconds(40)
    public static let hedgeCeiling: Duration = .milliseconds(400)

    /// The probes of the first wave, in the probe set's order: the wave `draw` picks among
    /// `FirstWaves`' count of them (it is given the count and answers a number below it).
    public static func firstWave(_ specs: [ProbeSpec], quorum: Int, draw: (Int) -> Int) -> [ProbeSpec] {
        let waves = FirstWaves(specs, quorum: quorum)
        let chosen = Set(waves.wave(waves.count > 1 ? draw(waves.count) : 0).map(\.name))
        return specs.filter { chosen.contains($0.name) }
    }

    /// What a path's probes look like between two answers.
    public struct State: Sendable {
        public var findings: PathFindings
        /// Probes not sent yet (also in `findings.pending`, as they may still be).
        public var held: [ProbeSpec]
        /// Since the round started, and when its first probe answered.
        public var elapsed: Duration
        public var firstAnswer: Duration?

        public init(findings: PathFindings, held: [ProbeSpec], elapsed: Duration, firstAnswer: Duration? = nil) {
            self.findings = findings
            self.held = held
            self.elapsed = elapsed
            self.firstAnswer = firstAnswer
        }
    }

    /// What to do with the held probes now: send some for good, let some go (never sent, or
    /// cancelled if the hedge sent them), and when the rest are sent unless something decides
    /// first (nil: no hedge). Probes the hedge sent stay held: the first wave may still settle
    /// the path, and then they are not needed, as if the first wave had not been slow.
    public struct Step: Sendable, Equatable {
        public var send: [String] = []
        public var drop: [String] = []
        public var hedgeAt: Duration?
        /// The hedge is the first wave's HTTPS grace, this long (`httpsHedge`): HTTPS sent at
        /// its end is waited for as long.
        public var httpsWait: Duration?

        public init(send: [String] = [], drop: [String] = [], hedgeAt: Duration? = nil, httpsWait: Duration? = nil) {
            self.send = send
            self.drop = drop
            self.hedgeAt = hedgeAt
            self.httpsWait = httpsWait
        }
    }

    /// When the held probes go out unless an answer decides first.
    public static func hedge(firstAnswer: Duration?) -> Duration {
        guard let firstAnswer else { return hedgeCeiling }
        return min(max(firstAnswer * 2, hedgeFloor), hedgeCeiling)
    }

    /// How long the held probes wait for the first wave's HTTPS once its plain HTTP has all
    /// validated: a TLS handshake and request take a few round trips more than plain HTTP, so
    /// three times what the check has taken, 100 ms at least (the HTTPS grace). A portal that
    /// silently drops HTTPS is found when the rest go out at its end.
    public static func httpsHedge(elapsed: Duration) -> Duration {
        elapsed + max(elapsed * 3, .milliseconds(100))
    }

    public static func next(_ state: State) -> Step {
        let held = state.held
        guard !held.isEmpty else { return Step() }
        let all = held.map(\.name)
        let findings = state.findings
        let answered = findings.settled.filter { $0.outcome != .skipped }
        // A probe that did not validate (refused, failed, intercepted, HTTPS too): the first
        // wave cannot settle the path, so everything goes, now. A portal that lets some hosts
        // through is caught by the others, as if every probe had gone at the start.
        if answered.contains(where: { $0.outcome != .success || $0.dnsHijack == true }) { return Step(send: all) }
        let heldNames = Set(all)
        var sent = findings
        sent.pending.removeAll { heldNames.contains($0.name) }
        // Every probe of the first wave validated: settled, if that makes the path online.
        if sent.pending.isEmpty, !answered.isEmpty {
            let firstWave = VerdictEngine.conclude(sent)
            if firstWave.verdict == .online && firstWave.probesFinal { return Step(drop: all) }
        }
        // Plain HTTP all in, HTTPS still running: it gets the HTTPS grace before the rest go.
        if !sent.pending.isEmpty, sent.pending.allSatisfy(\.isHTTPS), answered.contains(where: { !$0.spec.isHTTPS }) {
            let hedgeAt = httpsHedge(elapsed: state.elapsed)
            return Step(hedgeAt: hedgeAt, httpsWait: hedgeAt - state.elapsed)
        }
        // Plain HTTP still silent after HTTPS answered (port 80 dropped?) is left to the hedge:
        // a resumed TLS handshake often beats plain HTTP on a healthy network.
        // The runner sends them at the hedge (at once when it has passed); they stay the plan's
        // to let go if the first wave settles the path after all.
        return Step(hedgeAt: hedge(firstAnswer: state.firstAnswer))
    }
}
