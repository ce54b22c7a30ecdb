import NetprobeSystem

/// What one socket's tcp_info says about the way out at one dump, compared with the same
/// socket one dump earlier: a pure function of the two samples and the route to its peer.
///
/// - Only a socket leaving from the verdict's path to a destination the kernel routes through
///   a gateway (or out of a point-to-point link) counts. A neighbour on the link (the
///   gateway's own address, a NAS, an SSH session from the LAN) proves the link, not the way
///   out; the machine's own addresses and loopback prove nothing.
/// - It delivered when the bytes its peer acknowledged, or the bytes it received in order
///   while none of its own waited for acknowledgement, grew: the way out carried something at
///   the moment it last heard from its peer. A segment that only arrives again (a sender whose
///   acknowledgements are lost retransmits) adds nothing to either count.
/// - A send stalled when data (or a SYN) is outstanding, its retransmissions went unanswered
///   through `timeoutsInARow` timeouts in a row (the kernel resets that count at any
///   acknowledgement of new data), and nothing came back for `silence`.
/// - A receive stopped when the socket was streaming (data arriving at two dumps in a row, each
///   time within `streamGap` of the dump: a sender that had been keeping it busy for seconds)
///   and nothing arrived for `silence`. A response of a moment (a page, an API answer, a
///   keep-alive exchange) never streams, so the silence after it is idleness, not a stall.
///   A stream that simply ended reads as a stall; that costs at most one check, which then
///   proves the path (`StallDetector.checked`).
struct StallFlow: Equatable {
    /// What is remembered of a socket from one dump to the next.
    struct Seen: Equatable {
        var acked: UInt64
        var received: UInt64
        /// Dumps in a row at which it had just received new data.
        var streak: Int
        /// It streamed at some point (`streak` reached 2).
        var streamed: Bool
    }

    static let timeoutsInARow = 2
    static let silence: Duration = .seconds(3)
    static let streamGap: Duration = .seconds(1)

    /// When the way out last carried this socket's traffic, if it did since the dump before.
    var deliveredAt: Duration?
    /// When its peer fell silent, if its traffic stalled.
    var stalledSince: Duration?
    /// Traffic in flight or arriving: the detector keeps its brisk pace.
    var busy = false
    var seen: Seen

    /// Nil: the socket says nothing about the way out (another path, a neighbour, the machine itself).
    static func assess(_ socket: TCPSocketInfo, before: Seen?, path: Set<[UInt8]>, at now: Duration) -> StallFlow? {
        guard socket.route == .viaGateway, path.contains(socket.source), socket.state != .other else { return nil }
        let sinceData = Duration.milliseconds(socket.sinceDataReceivedMs)
        let sinceAck = Duration.milliseconds(socket.sinceAckReceivedMs)
        // A socket new since the last dump: whatever it ever delivered counts, at the time it did.
        let receivedGrew = socket.bytesReceived > (before?.received ?? 0)
        let ackedGrew = socket.bytesAcked > (before?.acked ?? 1)  // the SYN's acknowledgement is not data
        let arriving = receivedGrew && sinceData < streamGap
        let streak = arriving ? (before?.streak ?? 0) + 1 : 0
        var flow = StallFlow(seen: Seen(acked: socket.bytesAcked, received: socket.bytesReceived, streak: streak,
                                        streamed: streak >= 2 || before?.streamed == true))
        // New data received proves the way in; it proves the way out too only when nothing of
        // ours waits for an answer (a peer keeps sending for a window's worth after our
        // acknowledgements and data stopped reaching it).
        let receiveProves = receivedGrew && socket.unacked == 0
        if receiveProves || ackedGrew {
            flow.deliveredAt = now - (receiveProves && ackedGrew ? min(sinceData, sinceAck) : receiveProves ? sinceData : sinceAck)
        }
        let outstanding = socket.state == .synSent || socket.unacked > 0
        if socket.state == .synSent {
            // An opening socket has heard nothing yet (the kernel's time since the last
            // acknowledgement counts from boot): its SYN went out at least the retransmission
            // timeouts ago, 1 s doubling.
            let timeouts = socket.timeoutsInARow
            if timeouts >= timeoutsInARow { flow.stalledSince = now - .seconds((1 << min(timeouts, 16)) - 1) }
        } else if outstanding && socket.timeoutsInARow >= timeoutsInARow && sinceAck >= silence {
            flow.stalledSince = now - sinceAck
        } else if socket.state == .established, flow.seen.streamed, sinceData >= silence {
            flow.stalledSince = now - sinceData
        }
        flow.busy = flow.stalledSince == nil && (outstanding || receivedGrew || ackedGrew || flow.seen.streamed)
        return flow
    }
}
