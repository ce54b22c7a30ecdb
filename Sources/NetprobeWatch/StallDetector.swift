import NetprobeWire
import NetprobeVerdict
import NetprobeSystem

/// Passive stall detection: while online, the machine's own TCP traffic on the verdict's path
/// says whether that path still carries anything, with nothing sent to find out. When it
/// stalls, watch re-checks at once (trigger `stall`) instead of at the next interval.
///
/// Android's data-stall detection polls tcp_info every 20 s and re-validates when, over the
/// poll window, at least 10 segments were sent, 80% of them lost or retransmitted, and nothing
/// was received: it needs a whole window of evidence, so it acts 20 to 40 s after a stall, and
/// polls every 20 s whether or not anything is in flight. This detector compares each socket
/// with itself one dump earlier, and reads what the kernel knows of it now:
///
/// - A socket delivered when the bytes its peer acknowledged, or the bytes it received in
///   order, grew since the last dump. Segments that only arrive again (a sender across a path
///   that drops our acknowledgements retransmits into it) deliver nothing.
/// - A sender is stalled when its data in flight (or its SYN) went unanswered through at least
///   two retransmission timeouts in a row (the kernel resets that count at any acknowledgement
///   of new data) and it delivered nothing since the last dump.
/// - A download stopped mid-stream when it delivered between the two dumps before and nothing
///   since (its sender, across the dead path, is the one retransmitting).
/// - The path is suspected when nothing on it delivered since the last dump (at least
///   `minimumWindow` ago), and at least `minimumPeers` destinations have stalled senders or
///   stopped downloads, one at least a stalled sender. One server that hangs, drops or went
///   away (a peer that just closed, or died) stalls its own sockets only; any traffic that
///   still flows proves the path. A suspicion is not raised again while the stalls go to the
///   destinations it was raised for (an application reconnecting to a dead server), only when
///   others stall too, or after the stall is over.
/// - It reads the table every `activePoll` while a socket on the path has data in flight or
///   delivered, so a stall is seen 3 to 6 s after it began (the first dump after it still
///   shows what was delivered before); every `connectedPoll` while the path has only idle
///   connections (one may start sending at any moment); and every `emptyPoll` when the path
///   has no TCP connection at all: a machine without TCP traffic costs a dump of an empty
///   table every two minutes, and no wake-up in between. Traffic that starts on such a path is
///   seen at the next of those dumps, so a stall within its first two minutes may be seen that
///   much later.
public struct StallDetector {
    public static let activePoll: Duration = .seconds(3)
    public static let connectedPoll: Duration = .seconds(30)
    public static let emptyPoll: Duration = .seconds(120)
    /// The shortest stretch without delivery that can show a stall.
    public static let minimumWindow: Duration = .seconds(2)
    /// Retransmission timeouts in a row that make a sender stalled.
    public static let timeoutsInARow = 2
    /// Different destinations that must stall together.
    public static let minimumPeers = 2

    public struct Judgement: Equatable, Sendable {
        /// Sockets on the path (established or opening).
        public var onPath = 0
        /// Sockets on the path with data in flight, a SYN out, or that delivered: the pace is brisk.
        public var active = 0
        /// Stalled senders and stopped downloads on the path, and the destinations they go to.
        public var stalled = 0
        public var stalledPeers = 0
        /// Some socket on the path delivered since the last dump.
        public var progressing = false
        /// The path is suspected: check it now.
        public var suspected = false
    }

    private struct Seen {
        var acked: UInt64
        var received: UInt64
        /// It received new data between the dump before and this one.
        var receiving: Bool
    }

    /// Each socket on the path at the last dump, and when that dump was.
    private var lastSeen: [UInt64: Seen] = [:]
    private var lastDump: Duration?
    /// The destinations of the last suspicion: stalls to those alone do not raise another.
    private var suspectedPeers: Set<[UInt8]> = []

    public init() {}

    /// Reads one dump taken at `now` (boot-time clock) and remembers it for the next. `path`:
    /// the addresses of the interfaces the verdict rests on (a socket leaving from one of them
    /// is on the path; loopback and other links are not). `suspected` here knows nothing of
    /// earlier suspicions (`judge` does).
    public mutating func read(_ sockets: [TCPSocketInfo], path: Set<[UInt8]>, at now: Duration) -> Judgement {
        examine(sockets, path: path, at: now).judgement
    }

    /// Reads one dump and decides: a suspicion the last one already raised for the same
    /// destinations is not raised again.
    public mutating func judge(_ sockets: [TCPSocketInfo], path: Set<[UInt8]>, at now: Duration) -> Judgement {
        var (judgement, peers) = examine(sockets, path: path, at: now)
        judgement.suspected = judgement.suspected && !peers.isSubset(of: suspectedPeers)
        if judgement.suspected { suspectedPeers = peers }
        return judgement
    }

    private mutating func examine(_ sockets: [TCPSocketInfo], path: Set<[UInt8]>, at now: Duration)
        -> (judgement: Judgement, peers: Set<[UInt8]>) {
        // Too soon after the last dump (a check just ran) to tell silence from a pause: the
        // last dump stays the baseline, and nothing is suspected.
        let window = lastDump.map { now - $0 >= Self.minimumWindow } ?? false
        var judgement = Judgement()
        var peers: Set<[UInt8]> = []
        var senders = 0
        var seen: [UInt64: Seen] = [:]
        for socket in sockets where path.contains(socket.source) {
            judgement.onPath += 1
            let before = lastSeen[socket.cookie]
            let receiving = before.map { socket.bytesReceived > $0.received } ?? false
            // A socket new since the last dump delivered if it heard from its peer within the window.
            let delivered = before.map { receiving || socket.bytesAcked > $0.acked }
                ?? (socket.state == .established && socket.sinceReceivedMs < Self.minimumWindow.milliseconds)
            seen[socket.cookie] = Seen(acked: socket.bytesAcked, received: socket.bytesReceived,
                                       receiving: receiving || (before == nil && delivered))
            if delivered { judgement.progressing = true }
            let sending = socket.state == .synSent || (socket.state == .established && socket.unacked > 0)
            if sending || delivered { judgement.active += 1 }
            if sending && !delivered && socket.timeoutsInARow >= Self.timeoutsInARow {
                senders += 1
                judgement.stalled += 1
                peers.insert(socket.destination)
            } else if socket.state == .established, before?.receiving == true, !delivered {
                judgement.stalled += 1
                peers.insert(socket.destination)
            }
        }
        judgement.stalledPeers = peers.count
        judgement.suspected = window && !judgement.progressing && senders > 0 && peers.count >= Self.minimumPeers
        if lastDump == nil || window {
            lastSeen = seen
            lastDump = now
        }
        if peers.isEmpty { suspectedPeers = [] }  // the stall is over: a later one, to whatever destinations, is news
        return (judgement, peers)
    }

    /// When to look again after a dump that found `judgement`.
    public static func nextPoll(after judgement: Judgement) -> Duration {
        judgement.active > 0 ? activePoll : judgement.onPath > 0 ? connectedPoll : emptyPoll
    }
}

extension Duration {
    fileprivate var milliseconds: Int {
        let (seconds, attoseconds) = components
        return Int(seconds) * 1000 + Int(attoseconds / 1_000_000_000_000_000)
    }
}
