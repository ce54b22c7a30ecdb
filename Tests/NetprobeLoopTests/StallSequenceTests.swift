import NetprobeSystem
import NetprobeWatch
import Testing

/// The stall detector over whole sequences of socket tables, as watch reads them at its own
/// pace: flows modelled the way the kernel's tcp_info shows them (bytes counted as they are
/// delivered, the time since the peer was last heard, retransmission timeouts doubling from
/// 200 ms), and the gateway dropping everything from `dropAt` on.
@Suite struct StallSequenceTests {
    static let me: [UInt8] = [198, 51, 100, 2]
    static let gateway: [UInt8] = [198, 51, 100, 1]
    static let serverA: [UInt8] = [203, 0, 113, 10], serverB: [UInt8] = [203, 0, 113, 11], serverC: [UInt8] = [192, 0, 2, 12]

    enum Kind: Sendable {
        /// Bytes a second, arriving every `every`.
        case download(rate: Double)
        case upload(rate: Double)
        /// A keep-alive connection that fetches one short response at each of these seconds, then idles.
        case responses([Double])
        /// A websocket last answered at `answered`, whose NAT entry has since expired: from
        /// `sends` on it has a message out that is retransmitted into the void.
        case deadPeer(answered: Double, sends: Double)
        /// A download its reader takes at `reads` bytes a second (a player's pace, `curl
        /// --limit-rate`) from a link that carries `link`, paused over `paused`: see `Paced`.
        case paced(Paced)
    }

    /// The receive queue fills to `buffer` and the window shuts; the kernel opens it again once
    /// a sixteenth of the buffer is free. The reader takes `reads` bytes a second, all at once
    /// every `every` seconds (curl --limit-rate drains its queue in bursts) or, with `every` 0,
    /// a little at a time. `windowKnown` false: a kernel before 6.2, whose tcp_info has no rcv_wnd.
    struct Paced: Sendable {
        var reads: Double = 1_000_000
        var link: Double = 12_500_000
        var buffer: Double = 6_000_000
        var paused: Range<Double> = 0..<0
        var every = 0.0
        var windowKnown = true
    }

    struct Flow: Sendable {
        var peer: [UInt8]
        var kind: Kind
        var route: DestinationRoute = .viaGateway
        /// From when the flow exists.
        var opens: Double = 0
    }

    /// Data arrives in bursts this far apart (a reader taking 16 KB at a time).
    static let burst = 0.33

    /// The socket table at `t`; a flow through the gateway hears nothing after `dropAt`.
    static func table(_ flows: [Flow], at t: Double, dropAt: Double?) -> [TCPSocketInfo] {
        flows.enumerated().compactMap { index, flow in
            guard t >= flow.opens else { return nil }
            let cut = flow.route == .viaGateway ? min(t, dropAt ?? t) : t
            func lastBurst(_ until: Double) -> Double { flow.opens + ((until - flow.opens) / burst).rounded(.down) * burst }
            func ms(_ seconds: Double) -> Int { Int((seconds * 1000).rounded()) }
            func timeouts(since: Double) -> Int {
                var count = 0, next = since + 0.2, rto = 0.2
                while next <= t { count += 1; rto *= 2; next += rto }
                return count
            }
            var socket = TCPSocketInfo(cookie: UInt64(index + 1), state: .established, source: me, destination: flow.peer,
                                       route: flow.route)
            switch flow.kind {
            case .download(let rate):
                let last = lastBurst(cut)
                socket.bytesReceived = UInt64((last - flow.opens) * rate) + 1
                socket.bytesAcked = 100
                socket.sinceDataReceivedMs = ms(t - last)
                socket.sinceAckReceivedMs = ms(t - flow.opens)
            case .upload(let rate):
                let last = lastBurst(cut)
                socket.bytesAcked = UInt64((last - flow.opens) * rate) + 1
                socket.unacked = 10
                socket.timeoutsInARow = t > cut ? timeouts(since: cut) : 0
                socket.sinceAckReceivedMs = ms(t - last)
                socket.sinceDataReceivedMs = ms(t - flow.opens)
            case .responses(let times):
                let done = times.filter { $0 <= cut }
                socket.bytesReceived = UInt64(done.count * 30_000)
                socket.bytesAcked = UInt64(done.count * 400 + 1)
                socket.sinceDataReceivedMs = ms(t - (done.last ?? flow.opens))
                socket.sinceAckReceivedMs = socket.sinceDataReceivedMs
            case .paced(let paced):
                let state = Self.simulate(paced, from: flow.opens, to: t, cut: cut)
                socket.bytesReceived = UInt64(state.received)
                socket.bytesAcked = 100
                socket.receiveQueue = Int(state.queue)
                socket.receiveWindow = paced.windowKnown ? Int(state.window) : nil
                socket.sinceDataReceivedMs = ms(t - state.lastData)
                socket.sinceAckReceivedMs = ms(t - flow.opens)
            case .deadPeer(let answered, let sends):
                socket.bytesAcked = 5_000
                socket.bytesReceived = 5_000
                socket.sinceAckReceivedMs = ms(t - answered)
                socket.sinceDataReceivedMs = ms(t - answered)
                if t >= sends {
                    socket.unacked = 1
                    socket.timeoutsInARow = timeouts(since: sends)
                }
            }
            return socket
        }
    }

    /// A paced download from `opens` to `t`, in 10 ms steps; nothing arrives from `cut` on.
    static func simulate(_ paced: Paced, from opens: Double, to t: Double, cut: Double)
        -> (received: Double, queue: Double, window: Double, lastData: Double) {
        let step = 0.01
        var now = opens, received = 0.0, queue = 0.0, lastData = opens, open = true, allowance = 0.0
        var steps = 0
        while now + step <= t + 1e-9 {
            steps += 1
            if !paused(paced, at: now) {
                allowance += paced.reads * step
                let burst = paced.every == 0 || steps % Int((paced.every / step).rounded()) == 0
                if burst {
                    let taken = min(queue, allowance)
                    queue -= taken
                    allowance = paced.every == 0 ? 0 : allowance - taken
                }
            }
            if !open && paced.buffer - queue >= paced.buffer / 16 { open = true }
            if open && now < cut {
                let arrived = min(paced.link * step, paced.buffer - queue)
                if arrived > 0 {
                    received += arrived
                    queue += arrived
                    lastData = now + step
                }
                if paced.buffer - queue < 1_448 { open = false }
            }
            now += step
        }
        return (received, queue, open ? paced.buffer - queue : 0, lastData)
    }

    static func paused(_ paced: Paced, at t: Double) -> Bool { paced.paused.contains(t) }

    /// Watch's view: a check (online) at 0 s, then the table read at the detector's pace until
    /// `end`. Returns when the first suspicion came, if one did, and how many polls it took.
    static func run(_ flows: [Flow], dropAt: Double?, end: Double) -> (suspectedAt: Double?, polls: Int) {
        var detector = StallDetector()
        detector.checked(online: true, at: .zero)
        var t = 0.0, polls = 0
        var judgement = detector.read(table(flows, at: t, dropAt: dropAt), path: [me], at: .zero)
        while t < end {
            let pace = StallDetector.nextPoll(after: judgement).components.seconds
            t += Double(pace)
            polls += 1
            judgement = detector.judge(table(flows, at: t, dropAt: dropAt), path: [me], at: .milliseconds(Int64(t * 1000)))
            if judgement.suspected { return (t, polls) }
        }
        return (nil, polls)
    }

    struct Case: Sendable, CustomTestStringConvertible {
        var label: String
        var flows: [Flow]
        /// The gateway drops everything from then on (nil: never).
        var dropAt: Double?
        /// Seconds after the drop within which the stall must be suspected (nil: never suspected).
        var within: Double?
        var end: Double = 300
        var testDescription: String { label }
    }

    static func three(_ rate: Double) -> [Flow] {
        [Flow(peer: serverA, kind: .download(rate: rate)), Flow(peer: serverB, kind: .download(rate: rate)),
         Flow(peer: serverC, kind: .upload(rate: rate))]
    }

    static let cases: [Case] = [
        Case(label: "three servers at 1 MB/s", flows: three(1_000_000), dropAt: 20, within: 7),
        Case(label: "three servers at 50 kB/s", flows: three(50_000), dropAt: 20.1, within: 7),
        Case(label: "one server, two downloads and an upload",
             flows: [Flow(peer: serverA, kind: .download(rate: 1e6)), Flow(peer: serverA, kind: .download(rate: 1e6)),
                     Flow(peer: serverA, kind: .upload(rate: 1e6))], dropAt: 31.5, within: 7),
        Case(label: "downloads only, from two servers",
             flows: [Flow(peer: serverA, kind: .download(rate: 1e6)), Flow(peer: serverB, kind: .download(rate: 50_000))],
             dropAt: 20, within: 7),
        Case(label: "one upload alone (a backup to one server)", flows: [Flow(peer: serverC, kind: .upload(rate: 50_000))],
             dropAt: 45, within: 7),
        Case(label: "three servers beside a steady download from the gateway's own address",
             flows: three(1e6) + [Flow(peer: gateway, kind: .download(rate: 1e6), route: .onLink)], dropAt: 20, within: 7),
        Case(label: "traffic that starts 40 s after an empty table",
             flows: three(1e6).map { var flow = $0; flow.opens = 40; return flow }, dropAt: 75, within: 7),
        Case(label: "one dead peer beside finished keep-alive responses, 5 minutes",
             flows: [Flow(peer: serverA, kind: .deadPeer(answered: 2, sends: 60)),
                     Flow(peer: serverB, kind: .responses([5, 6, 7, 30])), Flow(peer: serverC, kind: .responses([8, 40]))],
             dropAt: nil, within: nil),
        Case(label: "keep-alive responses now and then, 5 minutes",
             flows: [Flow(peer: serverB, kind: .responses(Array(stride(from: 3.0, to: 300, by: 17))))], dropAt: nil, within: nil),
        Case(label: "a dead neighbour on the link (a NAS gone), the way out idle",
             flows: [Flow(peer: gateway, kind: .deadPeer(answered: 2, sends: 10), route: .onLink)], dropAt: nil, within: nil),
        Case(label: "a dead peer beyond the gateway with nothing else to prove the way out: checked",
             flows: [Flow(peer: serverA, kind: .deadPeer(answered: 2, sends: 10))], dropAt: 9, within: 30),
        Case(label: "rate-limited downloads from two servers, 6 MB queues drained in bursts 5 and 7 s apart",
             flows: [Flow(peer: serverA, kind: .paced(Paced(every: 5))), Flow(peer: serverB, kind: .paced(Paced(reads: 700_000, every: 7)))],
             dropAt: 20.4, within: 13),
        Case(label: "rate-limited downloads from one server, just after a burst",
             flows: [Flow(peer: serverA, kind: .paced(Paced(every: 5))), Flow(peer: serverA, kind: .paced(Paced(every: 5)), opens: 2.0)],
             dropAt: 27.05, within: 11),
        Case(label: "a rate-limited download with a 32 MB queue (32 s of reading), drained in bursts 6 s apart",
             flows: [Flow(peer: serverA, kind: .paced(Paced(buffer: 32_000_000, every: 6)))], dropAt: 40.5, within: 12),
        Case(label: "one rate-limited download, the kernel without rcv_wnd (the receive queue alone tells)",
             flows: [Flow(peer: serverA, kind: .paced(Paced(every: 5, windowKnown: false)))], dropAt: 33.3, within: 13),
        Case(label: "a reader paced at 1 MB/s in small reads (a 128 kB queue, data arriving all the time)",
             flows: [Flow(peer: serverA, kind: .paced(Paced(buffer: 128_000)))], dropAt: 20.2, within: 7),
        Case(label: "a paused reader alone for a minute, then resumed, on a healthy network, 5 minutes",
             flows: [Flow(peer: serverA, kind: .paced(Paced(buffer: 128_000, paused: 10..<70)))], dropAt: nil, within: nil),
        Case(label: "two readers paused a minute, one with a 6 MB queue, then resumed, on a healthy network, 5 minutes",
             flows: [Flow(peer: serverA, kind: .paced(Paced(buffer: 128_000, paused: 10..<70))),
                     Flow(peer: serverB, kind: .paced(Paced(paused: 20..<80)))], dropAt: nil, within: nil),
        Case(label: "a reader that resumes after its pause, then the drop",
             flows: [Flow(peer: serverA, kind: .paced(Paced(buffer: 128_000, paused: 10..<70)))], dropAt: 90.5, within: 7),
    ]

    @Test(arguments: cases)
    func sequence(_ example: Case) {
        let (suspectedAt, _) = Self.run(example.flows, dropAt: example.dropAt, end: example.end)
        if let within = example.within, let drop = example.dropAt {
            #expect(suspectedAt.map { $0 > drop && $0 - drop <= within } == true, "suspected at \(suspectedAt ?? -1) s, dropped at \(drop) s")
        } else {
            #expect(suspectedAt == nil, "suspected at \(suspectedAt ?? 0) s")
        }
    }

    /// A paused reader is not a stall, and moves nothing: it raises nothing, and once it has
    /// moved nothing for the idle poll's 30 s its flow is read at the idle pace, twice a minute.
    @Test func aPausedReaderWaitsAtTheIdlePace() {
        let flows = [Flow(peer: Self.serverA, kind: .paced(Paced(buffer: 128_000, paused: 8..<400)))]
        var detector = StallDetector()
        detector.checked(online: true, at: .zero)
        var judgement = detector.read(Self.table(flows, at: 0, dropAt: nil), path: [Self.me], at: .zero)
        var t = 0.0, reads = 0, suspicions = 0
        while t < 101 {
            t += Double(StallDetector.nextPoll(after: judgement).components.seconds)
            judgement = detector.judge(Self.table(flows, at: t, dropAt: nil), path: [Self.me], at: .milliseconds(Int64(t * 1000)))
            if t > 41 { reads += 1 }
            if judgement.suspected { suspicions += 1 }
        }
        #expect(suspicions == 0 && reads <= 3, "\(suspicions) suspicions, \(reads) reads in a minute of the pause")
    }

    /// Nothing through the gateway: two reads a minute, whatever the idle connections.
    @Test func idleOrEmptyCostsTwoReadsAMinute() {
        #expect(Self.run([], dropAt: nil, end: 60).polls == 2)
        let idle = [Flow(peer: Self.serverB, kind: .responses([])), Flow(peer: Self.serverC, kind: .responses([]))]
        #expect(Self.run(idle, dropAt: nil, end: 60).polls == 2)
    }
}
