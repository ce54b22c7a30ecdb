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
/// - A receive stopped when its sender could send and sent nothing for `silence`. The sender
///   may send while the window this end last advertised holds a segment (tcp_info's rcv_wnd,
///   Linux 6.2 on; before, while nothing waits in the receive queue, as the window reopens
///   once the reader has caught up). A flow whose window is shut (its queue full) waits on its
///   reader (a player at its playback rate, `curl --limit-rate`, a paused program), not on the
///   network; its silence counts only from the first dump that saw the window open again. A
///   reader that drains its queue in bursts reopens the window at each: the kernel offers the
///   sender room once a sixteenth of the buffer is free, long before a queue of megabytes is
///   read.
/// - Only a receive that had more coming is judged so: one that streamed (data arriving at two
///   dumps in a row, each time within `streamGap` of the dump) or whose sender was held back
///   by the reader (a window the sender filled; before 6.2, a full queue after `bulk`). A response
///   of a moment (a page, an API answer, a keep-alive exchange) never is, so the silence after
///   it is idleness, not a stall. A stream that simply ended reads as a stall; that costs at
///   most one check, which then proves the path (`StallDetector.checked`).
struct StallFlow: Equatable {
    /// What is remembered of a socket from one dump to the next.
    struct Seen: Equatable {
        var acked: UInt64
        var received: UInt64
        /// Dumps in a row at which it had just received new data.
        var streak: Int
        /// It streamed at some point (`streak` reached 2).
        var streamed: Bool
        /// Its sender was held back by this end's reader at some point: it had more to send.
        var heldBack = false
        /// Bytes waiting for the reader, and whether the sender was held (its window shut), at that dump.
        var queued = 0
        var senderHeld = false
        /// The first dump that saw the window open after it was shut: from then on the sender
        /// could send. Nil while shut, or when never seen shut.
        var openedAt: Duration?
    }

    static let timeoutsInARow = 2
    static let silence: Duration = .seconds(3)
    static let streamGap: Duration = .seconds(1)
    /// What a receive must have delivered for a full queue to mean its sender had more to send.
    static let bulk: UInt64 = 1 << 20
    /// How long a reader that moved nothing is still read at the brisk pace (the idle poll).
    static let readerPatience: Duration = .seconds(30)

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
        // The sender is held while the window this end offers is shut (below one segment, as
        // the kernel's silly-window avoidance closes it); without rcv_wnd, while data waits.
        // An opening socket has offered no window yet.
        let senderHeld = socket.state == .established
            && (socket.receiveWindow.map { $0 < max(socket.receiveMss, 1) } ?? (socket.receiveQueue > 0))
        let heldBack = senderHeld && (socket.receiveWindow != nil || socket.bytesReceived >= bulk)
        var flow = StallFlow(seen: Seen(acked: socket.bytesAcked, received: socket.bytesReceived, streak: streak,
                                        streamed: streak >= 2 || before?.streamed == true,
                                        heldBack: heldBack || before?.heldBack == true, queued: socket.receiveQueue,
                                        senderHeld: senderHeld,
                                        openedAt: senderHeld ? nil : before?.senderHeld == true ? now : before?.openedAt))
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
        } else if socket.state == .established, flow.seen.streamed || flow.seen.heldBack, !senderHeld {
            // The sender could send from its last data, or from when its window opened again.
            let couldSend = max(now - sinceData, flow.seen.openedAt ?? now - sinceData)
            if now - couldSend >= silence { flow.stalledSince = couldSend }
        }
        // A receive that had more coming keeps the brisk pace while its reader keeps up or keeps
        // reading (a rate-limited reader may leave its queue untouched for seconds, then drain
        // it at once); a reader paused for `readerPatience` moves nothing and waits at the idle pace.
        let readerMoving = receivedGrew || socket.receiveQueue != before?.queued || sinceData < readerPatience
        let watched = flow.seen.streamed || flow.seen.heldBack
        flow.busy = flow.stalledSince == nil && (outstanding || receivedGrew || ackedGrew || watched && (!senderHeld || readerMoving))
        return flow
    }
}
