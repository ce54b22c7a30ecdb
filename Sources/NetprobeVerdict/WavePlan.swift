import NetprobeWire

/// Which probes a path sends first, and when the rest follow: pure, so its rules are a table.
///
/// The first wave is what settles a healthy network: plain HTTP to a quorum of operators and
/// one HTTPS probe. The rest are held back and sent only when something fails or shows
/// interception (everything, at once: the verdict is then reached exactly as if it had all
/// gone at the start), when the first wave is slow (the hedge: also how a network that drops
/// port 80 gets the HTTPS operators for its quorum), and for `partial` one HTTPS operator at a time.
/// Once the first wave alone has made the path online and final, the held probes are never
/// sent; until then they count as pending, so the verdict cannot be final early.
///
/// The first wave's plain HTTP goes to hosts portals do not let through: a portal that
/// allow-lists the famous check hosts (so phones show no login window) intercepts these, and
/// shows itself to a quorum at once.
public enum WavePlan {
    /// Check hosts that portals are known to let through for the operating systems' own
    /// detectors; their plain-HTTP probes never make a first wave while others can.
    public static let allowListedHosts: Set<String> = [
        "captive.apple.com", "www.apple.com", "gsp1.apple.com",
        "connectivitycheck.gstatic.com", "connectivitycheck.android.com", "clients3.google.com", "www.google.com",
        "www.msftconnecttest.com", "www.msftncsi.com", "ipv6.msftconnecttest.com",
    ]

    /// The hedge: held probes go out this long after the first wave's first answer, twice the
    /// time that answer took (a healthy network answers the rest of the wave within it), never
    /// sooner than `hedgeFloor` after the start nor later than `hedgeCeiling` (nothing answered).
    public static let hedgeFloor: Duration = .milliseconds(40)
    public static let hedgeCeiling: Duration = .milliseconds(400)

    /// The probes of the first wave, in the probe set's order. `rotation` varies the pick among
    /// equally good candidates from check to check (as ChromeOS varies its probes), so a portal
    /// cannot learn which two hosts to let through.
    public static func firstWave(_ specs: [ProbeSpec], quorum: Int, rotation: Int = 0) -> [ProbeSpec] {
        func rotated(_ list: [ProbeSpec]) -> [ProbeSpec] {
            guard !list.isEmpty else { return list }
            let shift = ((rotation % list.count) + list.count) % list.count
            return Array(list[shift...] + list[..<shift])
        }
        let http = specs.filter { !$0.isHTTPS }
        let https = specs.filter(\.isHTTPS)
        var chosen: [ProbeSpec] = []
        var operators: Set<String> = []
        for spec in rotated(http.filter { !isAllowListed($0) }) + rotated(http.filter(isAllowListed))
        where operators.count < quorum && !operators.contains(spec.operatorName) {
            chosen.append(spec)
            operators.insert(spec.operatorName)
        }
        // HTTPS of an operator not asked over HTTP yet counts for a quorum on its own; one that
        // portals do not allow-list proves the most.
        let httpsOrder = https.filter { !operators.contains($0.operatorName) && !isAllowListed($0) }
            + https.filter { !operators.contains($0.operatorName) && isAllowListed($0) }
            + https.filter { operators.contains($0.operatorName) }
        if let first = httpsOrder.first { chosen.append(first) }
        return specs.filter { spec in chosen.contains { $0.name == spec.name } }
    }

    static func isAllowListed(_ spec: ProbeSpec) -> Bool {
        URLSyntax.hostAndPort(spec.url).map { allowListedHosts.contains($0.host.lowercased()) } ?? false
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

        public init(send: [String] = [], drop: [String] = [], hedgeAt: Duration? = nil) {
            self.send = send
            self.drop = drop
            self.hedgeAt = hedgeAt
        }
    }

    /// When the held probes go out unless an answer decides first.
    public static func hedge(firstAnswer: Duration?) -> Duration {
        guard let firstAnswer else { return hedgeCeiling }
        return min(max(firstAnswer * 2, hedgeFloor), hedgeCeiling)
    }

    public static func next(_ state: State) -> Step {
        let held = state.held
        guard !held.isEmpty else { return Step() }
        let all = held.map(\.name)
        let findings = state.findings
        let answered = findings.settled.filter { $0.outcome != .skipped }
        // Failure or interception anywhere, but HTTPS that merely failed: everything, now.
        let trouble = answered.contains { evidence in
            evidence.outcome == .portal || evidence.dnsHijack == true || (!evidence.spec.isHTTPS && evidence.outcome == .failure)
        }
        if trouble { return Step(send: all) }
        let heldNames = Set(all)
        var sent = findings
        sent.pending.removeAll { heldNames.contains($0.name) }
        let withoutHeld = VerdictEngine.conclude(sent)
        let heldHTTP = held.filter { !$0.isHTTPS }.map(\.name)
        let heldHTTPS = held.filter(\.isHTTPS)
        if withoutHeld.verdict == .online && withoutHeld.probesFinal {
            // Settled by the first wave. HTTPS goes on only as far as `partial` needs: one
            // operator validated is enough; after a failure, the next is asked, one at a time.
            let httpsAnswered = answered.filter(\.spec.isHTTPS)
            let httpsRunning = sent.pending.contains(where: \.isHTTPS)
            if heldHTTPS.isEmpty || (!httpsAnswered.isEmpty && httpsAnswered.allSatisfy { $0.outcome == .success }) {
                return Step(drop: all)
            }
            if httpsRunning { return Step(drop: heldHTTP) }
            if VerdictEngine.conclude(findings).partial == nil {
                return Step(send: [heldHTTPS[0].name], drop: heldHTTP)
            }
            return Step(drop: all)
        }
        // Plain HTTP still silent after HTTPS answered (port 80 dropped?) is left to the hedge:
        // a resumed TLS handshake often beats plain HTTP on a healthy network.
        // The runner sends them at the hedge (at once when it has passed); they stay the plan's
        // to let go if the first wave settles the path after all.
        return Step(hedgeAt: hedge(firstAnswer: state.firstAnswer))
    }
}
