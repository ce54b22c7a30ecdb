import NetprobeWire
import NetprobeVerdict
import NetprobeSystem

/// Passive stall detection: while online, the machine's own TCP traffic through the gateway
/// says whether the way out still carries anything, with nothing sent to find out. When it
/// stalls, watch re-checks at once (trigger `stall`) instead of at the next interval.
///
/// Android's data-stall detection polls tcp_info every 20 s and re-validates when, over the
/// poll window, at least 10 segments were sent, 80% of them lost or retransmitted, and nothing
/// was received: it needs a whole window of evidence and acts 20 to 40 s after a stall. This
/// detector compares each socket with itself one dump earlier (`StallFlow`: what counts, what
/// a delivery, a stalled send and a stopped receive are) and judges by time:
///
/// - The way out was proven at the latest moment any socket through it delivered, or a check
///   found the network online.
/// - A stalled flow whose peer fell silent more than `margin` before that moment is its own
///   server's trouble (a dead peer, a websocket whose NAT entry expired): the way out carried
///   other traffic after it went quiet. It never raises a check, however long it lasts.
/// - Any other stalled flow, even a single one to a single destination, raises a suspicion:
///   check now. Its cost when wrong is one check, and it is bounded: when the check finds the
///   network online, stalls to the same destinations (by prefix, /24 for IPv4 and /48 for
///   IPv6, so a service's neighbouring addresses count as one) raise no check for
///   `prefixBackoff`, and no stall at all raises one for `quiet`, which doubles after each such
///   check up to `prefixBackoff` (so addresses rotating across prefixes cost few checks) and
///   starts again once a stall check finds the network down.
/// - It reads the table every `activePoll` while traffic through the gateway is in flight,
///   arriving, waiting on a reader that still reads, or stalled and not yet explained, so a
///   stall is seen 3 to 6 s after it began (after a rate-limited reader caught up with what
///   arrived before it);
///   otherwise every `idlePoll`, with idle connections or none: two wake-ups a minute, and
///   traffic that starts is seen within 30 s.
public struct StallDetector {
    public static let activePoll: Duration = .seconds(3)
    public static let idlePoll: Duration = .seconds(30)
    /// The shortest stretch between two dumps that can show a stall.
    public static let minimumWindow: Duration = .seconds(2)
    /// How much earlier than the way out's last proof a flow must have fallen silent to be its
    /// own peer's trouble: deliveries still in flight at the moment a path dies arrive a little
    /// after the last acknowledgement of a flow beside them.
    public static let margin: Duration = .seconds(1)
    /// After a stall check found the network online: how long stalls to the same prefixes are
    /// not checked, and the first and longest pause for every stall.
    public static let prefixBackoff: Duration = .seconds(1800)
    public static let firstQuiet: Duration = .seconds(60)

    public struct Judgement: Equatable, Sendable {
        /// Sockets through the gateway on the path (established or opening).
        public var onPath = 0
        /// Sockets whose traffic keeps the brisk pace: in flight, arriving, or stalled unexplained.
        public var active = 0
        /// Stalled flows the way out's last proof does not explain, and their destination prefixes.
        public var stalled = 0
        public var stalledPeers = 0
        /// Some socket through the gateway delivered since the last dump.
        public var progressing = false
        /// Check now.
        public var suspected = false
    }

    private var lastSeen: [UInt64: StallFlow.Seen] = [:]
    private var lastDump: Duration?
    /// The latest moment the way out was seen to carry traffic.
    private var provenAt: Duration?
    /// Prefixes whose stalls raise no check until the time given.
    private var quietPrefixes: [[UInt8]: Duration] = [:]
    private var quietUntil: Duration = .zero
    private var quiet = firstQuiet
    /// The prefixes of the suspicion whose check has not run yet.
    private var raised: Set<[UInt8]> = []

    public init() {}

    /// Reads one dump taken at `now` (boot-time clock) right after a check: it sets the
    /// baseline and the pace; a suspicion it finds is not acted on (the check just ran).
    /// `path`: the addresses of the interfaces the verdict rests on.
    public mutating func read(_ sockets: [TCPSocketInfo], path: Set<[UInt8]>, at now: Duration) -> Judgement {
        examine(sockets, path: path, at: now, acting: false)
    }

    /// Reads one dump on the detector's own timer and decides whether to check.
    public mutating func judge(_ sockets: [TCPSocketInfo], path: Set<[UInt8]>, at now: Duration) -> Judgement {
        examine(sockets, path: path, at: now, acting: true)
    }

    /// A check that began at `at` ended: online proves the way out at that moment; after a
    /// suspicion, it also says whether the suspicion was wrong (and the back-off begins).
    public mutating func checked(online: Bool, at: Duration) {
        if online { provenAt = max(provenAt ?? at, at) }
        guard !raised.isEmpty else { return }
        if online {
            if quietPrefixes.count > 256 { quietPrefixes = quietPrefixes.filter { $0.value > at } }
            for prefix in raised { quietPrefixes[prefix] = at + Self.prefixBackoff }
            quietUntil = at + quiet
            quiet = min(quiet * 2, Self.prefixBackoff)
        } else {
            quiet = Self.firstQuiet
        }
        raised = []
    }

    private mutating func examine(_ sockets: [TCPSocketInfo], path: Set<[UInt8]>, at now: Duration, acting: Bool) -> Judgement {
        // Too soon after the last dump (a check just ran) to tell silence from a pause: the
        // last dump stays the baseline, and nothing is suspected.
        let window = lastDump.map { now - $0 >= Self.minimumWindow } ?? false
        var judgement = Judgement()
        var seen: [UInt64: StallFlow.Seen] = [:]
        seen.reserveCapacity(lastSeen.count)
        var stalls: [(since: Duration, prefix: [UInt8])] = []
        for socket in sockets {
            guard let flow = StallFlow.assess(socket, before: lastSeen[socket.cookie], path: path, at: now) else { continue }
            judgement.onPath += 1
            seen[socket.cookie] = flow.seen
            if let delivered = flow.deliveredAt {
                judgement.progressing = true
                provenAt = max(provenAt ?? delivered, delivered)
            }
            if flow.busy { judgement.active += 1 }
            if let since = flow.stalledSince { stalls.append((since, Self.prefix(of: socket.destination))) }
        }
        var prefixes: Set<[UInt8]> = []
        for stall in stalls {
            let explained = provenAt.map { $0 > stall.since + Self.margin } ?? false
            let backedOff = quietPrefixes[stall.prefix].map { $0 > now } ?? false
            guard !explained, !backedOff else { continue }
            judgement.stalled += 1
            judgement.active += 1
            prefixes.insert(stall.prefix)
        }
        judgement.stalledPeers = prefixes.count
        judgement.suspected = window && !prefixes.isEmpty && now >= quietUntil
        if acting && judgement.suspected { raised = prefixes }
        if lastDump == nil || window {
            lastSeen = seen
            lastDump = now
        }
        return judgement
    }

    /// A destination's prefix: /24 for IPv4, /48 for IPv6.
    static func prefix(of address: [UInt8]) -> [UInt8] {
        Array(address.prefix(address.count == 4 ? 3 : 6))
    }

    /// When to look again after a dump that found `judgement`.
    public static func nextPoll(after judgement: Judgement) -> Duration {
        judgement.active > 0 ? activePoll : idlePoll
    }
}
