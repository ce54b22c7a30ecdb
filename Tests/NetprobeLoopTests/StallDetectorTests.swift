import NetprobeWire
import NetprobeVerdict
import NetprobeOutput
import NetprobeReport
import NetprobeSystem
import NetprobeNetwork
import NetprobeCheck
import NetprobeWatch
import Testing

/// The stall detector's judgement of socket tables, and watch acting on it.
@Suite struct StallDetectorTests {
    static let me: [UInt8] = [198, 51, 100, 2]
    static let path: Set<[UInt8]> = [me]
    static let peerA: [UInt8] = [203, 0, 113, 10], peerB: [UInt8] = [203, 0, 113, 11], peerC: [UInt8] = [203, 0, 113, 12]

    /// An upload whose data has gone unanswered through `timeouts` retransmission timeouts
    /// (`acked` grows while it is answered).
    static func upload(_ cookie: UInt64, to peer: [UInt8], timeouts: Int = 3, acked: UInt64 = 5_000_000, from source: [UInt8] = me)
        -> TCPSocketInfo {
        TCPSocketInfo(cookie: cookie, state: .established, source: source, destination: peer, unacked: 10, timeoutsInARow: timeouts,
                      sinceReceivedMs: 4_000, bytesAcked: acked)
    }

    /// A download that has received `received` bytes.
    static func download(_ cookie: UInt64, from peer: [UInt8], received: UInt64, silentMs: Int = 3) -> TCPSocketInfo {
        TCPSocketInfo(cookie: cookie, state: .established, source: me, destination: peer, sinceReceivedMs: silentMs, bytesReceived: received)
    }

    static func syn(_ cookie: UInt64, to peer: [UInt8], timeouts: Int) -> TCPSocketInfo {
        TCPSocketInfo(cookie: cookie, state: .synSent, source: me, destination: peer, timeoutsInARow: timeouts, sinceReceivedMs: 0)
    }

    /// Two dumps 3 s apart, the second judged.
    static func judge(_ before: [TCPSocketInfo], _ after: [TCPSocketInfo]) -> StallDetector.Judgement {
        var detector = StallDetector()
        _ = detector.read(before, path: path, at: .seconds(100))
        return detector.judge(after, path: path, at: .seconds(103))
    }

    struct Case: Sendable, CustomTestStringConvertible {
        var label: String
        var before: [TCPSocketInfo]
        var after: [TCPSocketInfo]
        var suspected: Bool
        var active: Int
        var testDescription: String { label }
    }

    static let cases: [Case] = [
        Case(label: "uploads to two peers unanswered through two timeouts, nothing delivered: suspected",
             before: [upload(1, to: peerA, timeouts: 0, acked: 1_000), upload(2, to: peerB, timeouts: 0, acked: 1_000)],
             after: [upload(1, to: peerA, acked: 1_000), upload(2, to: peerB, timeouts: 2, acked: 1_000)], suspected: true, active: 2),
        Case(label: "downloads stopped mid-stream beside a stalled upload (the gateway drops what we send): suspected",
             before: [download(1, from: peerA, received: 9_000), upload(2, to: peerB, timeouts: 0, acked: 1_000)],
             after: [download(1, from: peerA, received: 9_000, silentMs: 200), upload(2, to: peerB, acked: 1_000)],
             suspected: true, active: 1),
        Case(label: "one slow or dead server, however many sockets to it: not",
             before: [upload(1, to: peerA, timeouts: 1), upload(2, to: peerA, timeouts: 1), upload(3, to: peerA, timeouts: 1)],
             after: [upload(1, to: peerA, timeouts: 6), upload(2, to: peerA, timeouts: 5), upload(3, to: peerA)], suspected: false, active: 3),
        Case(label: "two stalled peers while a download still delivers: the path works",
             before: [upload(1, to: peerA), upload(2, to: peerB), download(3, from: peerC, received: 100)],
             after: [upload(1, to: peerA), upload(2, to: peerB), download(3, from: peerC, received: 90_000)], suspected: false, active: 3),
        Case(label: "a peer that just closed (one stalled socket) beside a download that flows: not",
             before: [upload(1, to: peerA), download(2, from: peerB, received: 100)],
             after: [upload(1, to: peerA, timeouts: 4), download(2, from: peerB, received: 80_000)], suspected: false, active: 2),
        Case(label: "slow servers (in flight, one timeout each, still acknowledging): not",
             before: [upload(1, to: peerA, timeouts: 0, acked: 100), upload(2, to: peerB, timeouts: 0, acked: 100)],
             after: [upload(1, to: peerA, timeouts: 1, acked: 900), upload(2, to: peerB, timeouts: 1, acked: 700)], suspected: false, active: 2),
        Case(label: "stalled sockets on another interface (a VPN) or loopback: not this path's",
             before: [upload(1, to: peerA, from: [10, 0, 0, 2]), upload(2, to: peerB, from: [127, 0, 0, 1])],
             after: [upload(1, to: peerA, from: [10, 0, 0, 2]), upload(2, to: peerB, from: [127, 0, 0, 1])], suspected: false, active: 0),
        Case(label: "new connections whose SYNs go unanswered to two peers: suspected",
             before: [], after: [syn(1, to: peerA, timeouts: 2), syn(2, to: peerB, timeouts: 3)], suspected: true, active: 2),
        Case(label: "finished downloads and idle connections only: nothing waits for an answer",
             before: [download(1, from: peerA, received: 10), download(2, from: peerB, received: 10)],
             after: [download(1, from: peerA, received: 10, silentMs: 60_000), download(2, from: peerB, received: 10, silentMs: 90_000)],
             suspected: false, active: 0),
        Case(label: "an empty table", before: [], after: [], suspected: false, active: 0),
    ]

    @Test(arguments: cases)
    func judgement(_ example: Case) {
        let judgement = Self.judge(example.before, example.after)
        #expect(judgement.suspected == example.suspected, "\(judgement)")
        #expect(judgement.active == example.active, "\(judgement)")
        let pace = example.active > 0 ? StallDetector.activePoll
            : judgement.onPath > 0 ? StallDetector.connectedPoll : StallDetector.emptyPoll
        #expect(StallDetector.nextPoll(after: judgement) == pace)
    }

    /// The dump after the stall began still shows what was delivered before it; the next one shows the stall.
    @Test func aStallIsSeenAtTheSecondDumpAfterItBegan() {
        var detector = StallDetector()
        var received: UInt64 = 1_000, acked: UInt64 = 1_000
        for second in stride(from: 100, through: 109, by: 3) {
            received += 50_000
            acked += 50_000
            let flowing = [Self.download(1, from: Self.peerA, received: received), Self.upload(2, to: Self.peerB, timeouts: 0, acked: acked)]
            #expect(!detector.judge(flowing, path: Self.path, at: .seconds(Int64(second))).suspected)
        }
        // Dropped at 110 s: the dump at 112 s still counts 109-110 s of delivery.
        received += 10_000
        acked += 10_000
        let after = [Self.download(1, from: Self.peerA, received: received), Self.upload(2, to: Self.peerB, acked: acked)]
        #expect(!detector.judge(after, path: Self.path, at: .seconds(112)).suspected)
        // A check ran meanwhile and read the table at 113 s: too soon after 112 s to judge silence.
        #expect(!detector.judge(after, path: Self.path, at: .seconds(113)).suspected)
        #expect(detector.judge(after, path: Self.path, at: .seconds(115)).suspected)
    }

    @Test func aSuspicionIsNotRaisedAgainByTheSameDestinationsOnly() {
        var detector = StallDetector()
        let stalled = [Self.upload(1, to: Self.peerA), Self.upload(2, to: Self.peerB)]
        _ = detector.read(stalled, path: Self.path, at: .seconds(100))
        #expect(detector.judge(stalled, path: Self.path, at: .seconds(103)).suspected)
        // The check found the network online (two dead servers): the same stall, and an
        // application reconnecting to one of them, raise nothing more.
        #expect(!detector.judge(stalled, path: Self.path, at: .seconds(106)).suspected)
        #expect(!detector.judge(stalled + [Self.syn(3, to: Self.peerA, timeouts: 2)], path: Self.path, at: .seconds(109)).suspected)
        // A third destination stalls too: news.
        #expect(detector.judge(stalled + [Self.upload(4, to: Self.peerC)], path: Self.path, at: .seconds(112)).suspected)
        // The stall ended; a later one to the first two is news again.
        #expect(!detector.judge([], path: Self.path, at: .seconds(115)).suspected)
        #expect(detector.judge(stalled, path: Self.path, at: .seconds(118)).suspected)
    }
}

/// A socket table the test writes.
final class ScriptedSockets: TCPSocketSource {
    var table: [TCPSocketInfo] = []
    private(set) var reads = 0
    func sockets() throws -> [TCPSocketInfo] {
        reads += 1
        return table
    }
}

extension StallDetectorTests {
    /// Online with the interval far away: traffic in flight makes watch read the table every
    /// 3 s; when it stalls, it checks at once (trigger stall), finds the path dead, and says so.
    @Test func watchChecksAtOnceWhenItsTrafficStalls() throws {
        let clock = ScriptedClock()
        let sockets = ScriptedSockets()
        var delivered: UInt64 = 0
        func flowing() -> [TCPSocketInfo] {
            delivered += 100_000
            return [Self.download(1, from: Self.peerA, received: delivered), Self.upload(2, to: Self.peerB, timeouts: 0, acked: delivered)]
        }
        sockets.table = flowing()
        var dead = false
        let runner = ScriptedRunner { _, _ in dead ? nil : Kit.ok(2) }
        let events = ScriptedWatchEvents([
            { timeout in  // a poll: still flowing
                sockets.table = flowing()
                clock.advance(timeout ?? .zero)
                return .timer
            },
            { timeout in  // the gateway drops everything: the next dump still shows the last deliveries
                dead = true
                sockets.table = [Self.download(1, from: Self.peerA, received: delivered + 5), Self.upload(2, to: Self.peerB, acked: delivered + 5)]
                clock.advance(timeout ?? .zero)
                return .timer
            },
            Self.timerStep(clock),  // the one after shows the stall
        ])
        let handler = RecordingHandler(clock: clock)
        let loop = WatchLoop(checker: Checker(source: ScriptedPaths(Kit.dualStack), makeRunner: { runner }), events: events,
                             options: Kit.options(timeout: 2), settings: WatchSettings(interval: .seconds(600), hold: .zero),
                             clock: clock, jitter: .off, handler: handler, sockets: sockets)
        try loop.run()
        #expect(handler.summary == ["start online start", "change offline stall"], "\(handler.summary)")
        #expect(events.timeouts.prefix(3) == [StallDetector.activePoll, StallDetector.activePoll, StallDetector.activePoll])
        #expect(handler.checks.last?.counters.stallSuspected == 1)
        #expect(PrometheusFormatter.format(handler.checks.last!.reported, watch: handler.checks.last!.counters)
            .contains("netprobe_stall_suspected_total 1\n"))
        // Not online: no more reads of the table (the start's survey, three polls).
        #expect(sockets.reads == 4)
    }

    /// No TCP traffic: the table is read after each check (no wake-up of its own) and then every two minutes.
    @Test func withoutTrafficItReadsTheTableEveryTwoMinutesOnly() throws {
        let clock = ScriptedClock()
        let sockets = ScriptedSockets()
        let events = ScriptedWatchEvents([Self.timerStep(clock), Self.timerStep(clock)])
        let handler = RecordingHandler(clock: clock)
        let loop = WatchLoop(checker: Checker(source: ScriptedPaths(Kit.dualStack), makeRunner: { ScriptedRunner { _, _ in Kit.ok(2) } }),
                             events: events, options: Kit.options(), settings: WatchSettings(interval: .seconds(300), hold: .zero),
                             clock: clock, jitter: .off, handler: handler, sockets: sockets)
        try loop.run()
        #expect(events.timeouts == [StallDetector.emptyPoll, StallDetector.emptyPoll, .seconds(60)])
        #expect(handler.checks.count == 1 && sockets.reads == 3)
    }

    static func timerStep(_ clock: ScriptedClock) -> (Duration?) -> ChangeWaiter.Wake {
        { timeout in
            clock.advance(timeout ?? .zero)
            return .timer
        }
    }
}
