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
    static let peerA: [UInt8] = [203, 0, 113, 10], peerB: [UInt8] = [203, 0, 113, 11], peerC: [UInt8] = [192, 0, 2, 12]
    /// The gateway's own address: a neighbour on the link.
    static let gateway: [UInt8] = [198, 51, 100, 1]

    /// An upload whose data has gone unanswered through `timeouts` retransmission timeouts
    /// (`acked` grows while it is answered), its peer silent for `silentMs`.
    static func upload(_ cookie: UInt64, to peer: [UInt8], timeouts: Int = 3, acked: UInt64 = 5_000_000, silentMs: Int = 4_000,
                       from source: [UInt8] = me, route: DestinationRoute = .viaGateway) -> TCPSocketInfo {
        TCPSocketInfo(cookie: cookie, state: .established, source: source, destination: peer, unacked: 10, timeoutsInARow: timeouts,
                      sinceDataReceivedMs: 600_000, sinceAckReceivedMs: silentMs, bytesAcked: acked, route: route)
    }

    /// A download that has received `received` bytes, the last of them `silentMs` ago.
    static func download(_ cookie: UInt64, from peer: [UInt8], received: UInt64, silentMs: Int = 3,
                         route: DestinationRoute = .viaGateway) -> TCPSocketInfo {
        TCPSocketInfo(cookie: cookie, state: .established, source: me, destination: peer, sinceDataReceivedMs: silentMs,
                      sinceAckReceivedMs: silentMs, bytesAcked: 200, bytesReceived: received, route: route)
    }

    static func syn(_ cookie: UInt64, to peer: [UInt8], timeouts: Int) -> TCPSocketInfo {
        // An opening socket never heard from its peer: the kernel counts that from boot.
        TCPSocketInfo(cookie: cookie, state: .synSent, source: me, destination: peer, timeoutsInARow: timeouts,
                      sinceDataReceivedMs: 86_400_000, sinceAckReceivedMs: 86_400_000)
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
        Case(label: "one upload to one server unanswered through two timeouts, nothing delivered after it went quiet: suspected",
             before: [upload(1, to: peerA, timeouts: 0, acked: 1_000, silentMs: 10)],
             after: [upload(1, to: peerA, timeouts: 2, acked: 1_000, silentMs: 3_000)], suspected: true, active: 1),
        Case(label: "uploads in flight, one timeout each, still acknowledged: not",
             before: [upload(1, to: peerA, timeouts: 0, acked: 100), upload(2, to: peerB, timeouts: 0, acked: 100)],
             after: [upload(1, to: peerA, timeouts: 1, acked: 900, silentMs: 300), upload(2, to: peerB, timeouts: 1, acked: 700, silentMs: 200)],
             suspected: false, active: 2),
        Case(label: "a stalled upload whose peer went quiet long before a download delivered: that server's trouble",
             before: [upload(1, to: peerA, silentMs: 20_000), download(2, from: peerB, received: 100)],
             after: [upload(1, to: peerA, silentMs: 23_000), download(2, from: peerB, received: 90_000)], suspected: false, active: 1),
        Case(label: "stalled uploads to neighbours on the link, to the machine itself, or from another interface: not the way out",
             before: [upload(1, to: gateway, route: .onLink), upload(2, to: [127, 0, 0, 1], from: [127, 0, 0, 1], route: .local),
                      upload(3, to: peerA, from: [10, 0, 0, 2])],
             after: [upload(1, to: gateway, route: .onLink), upload(2, to: [127, 0, 0, 1], from: [127, 0, 0, 1], route: .local),
                     upload(3, to: peerA, from: [10, 0, 0, 2])], suspected: false, active: 0),
        Case(label: "a connection whose SYN went unanswered through two timeouts: suspected",
             before: [], after: [syn(1, to: peerA, timeouts: 2)], suspected: true, active: 1),
        Case(label: "a SYN unanswered since a download delivered its last bytes (its own silence counts from the SYN, not from boot)",
             before: [download(2, from: peerB, received: 9_000, silentMs: 10)],
             after: [syn(1, to: peerA, timeouts: 2), download(2, from: peerB, received: 9_000, silentMs: 3_010)],
             suspected: true, active: 1),
        Case(label: "finished downloads and idle connections only: nothing waits for an answer",
             before: [download(1, from: peerA, received: 10, silentMs: 57_000), download(2, from: peerB, received: 10, silentMs: 87_000)],
             after: [download(1, from: peerA, received: 10, silentMs: 60_000), download(2, from: peerB, received: 10, silentMs: 90_000)],
             suspected: false, active: 0),
        Case(label: "the way out dead, the way in not: new data still arrives while ours goes unanswered: suspected",
             before: [TCPSocketInfo(cookie: 1, state: .established, source: me, destination: peerA, unacked: 1, timeoutsInARow: 0,
                                    sinceDataReceivedMs: 100, sinceAckReceivedMs: 1_900, bytesAcked: 40, bytesReceived: 40)],
             after: [TCPSocketInfo(cookie: 1, state: .established, source: me, destination: peerA, unacked: 2, timeoutsInARow: 3,
                                   sinceDataReceivedMs: 1_000, sinceAckReceivedMs: 4_900, bytesAcked: 40, bytesReceived: 41)],
             suspected: true, active: 1),
        Case(label: "an empty table", before: [], after: [], suspected: false, active: 0),
    ]

    @Test(arguments: cases)
    func judgement(_ example: Case) {
        let judgement = Self.judge(example.before, example.after)
        #expect(judgement.suspected == example.suspected, "\(judgement)")
        #expect(judgement.active == example.active, "\(judgement)")
        #expect(StallDetector.nextPoll(after: judgement) == (example.active > 0 ? StallDetector.activePoll : StallDetector.idlePoll))
    }
}

/// A socket table the test writes.
final class ScriptedSockets: TCPSocketSource {
    var table: [TCPSocketInfo] = []
    private(set) var reads = 0
    private(set) var routeResets = 0
    func routesChanged() { routeResets += 1 }
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
                sockets.table = [Self.download(1, from: Self.peerA, received: delivered + 5, silentMs: 2_900),
                                 Self.upload(2, to: Self.peerB, acked: delivered + 5, silentMs: 2_900)]
                clock.advance(timeout ?? .zero)
                return .timer
            },
            { timeout in  // the one after shows the stall: nothing heard for 5.9 s
                sockets.table = [Self.download(1, from: Self.peerA, received: delivered + 5, silentMs: 5_900),
                                 Self.upload(2, to: Self.peerB, acked: delivered + 5, silentMs: 5_900)]
                clock.advance(timeout ?? .zero)
                return .timer
            },
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

    /// No TCP traffic: the table is read after each check (no wake-up of its own) and then twice a minute.
    @Test func withoutTrafficItReadsTheTableTwiceAMinute() throws {
        let clock = ScriptedClock()
        let sockets = ScriptedSockets()
        let events = ScriptedWatchEvents([Self.timerStep(clock), Self.timerStep(clock)])
        let handler = RecordingHandler(clock: clock)
        let loop = WatchLoop(checker: Checker(source: ScriptedPaths(Kit.dualStack), makeRunner: { ScriptedRunner { _, _ in Kit.ok(2) } }),
                             events: events, options: Kit.options(), settings: WatchSettings(interval: .seconds(300), hold: .zero),
                             clock: clock, jitter: .off, handler: handler, sockets: sockets)
        try loop.run()
        #expect(events.timeouts == [StallDetector.idlePoll, StallDetector.idlePoll, StallDetector.idlePoll])
        #expect(handler.checks.count == 1 && sockets.reads == 3 && sockets.routeResets == 1)
    }

    static func timerStep(_ clock: ScriptedClock) -> (Duration?) -> ChangeWaiter.Wake {
        { timeout in
            clock.advance(timeout ?? .zero)
            return .timer
        }
    }
}

extension StallDetectorTests {
    /// A stall check that found the network online bounds what a dead server costs: its flow is
    /// explained for good, stalls to its /24 raise nothing for the prefix back-off, and no
    /// stall at all raises a check for a minute (then two, ...), whatever its address.
    @Test func aWrongSuspicionStartsTheBackoff() {
        var detector = StallDetector()
        func at(_ seconds: Int64) -> Duration { .seconds(seconds) }
        func suspected(_ table: [TCPSocketInfo], _ seconds: Int64) -> Bool {
            detector.judge(table, path: Self.path, at: at(seconds)).suspected
        }
        _ = detector.read([], path: Self.path, at: at(100))
        #expect(suspected([Self.upload(1, to: Self.peerA, silentMs: 3_000)], 103))
        detector.checked(online: true, at: at(104))
        // The same flow, still stalled: the check proved the way out after it fell silent.
        #expect(!suspected([Self.upload(1, to: Self.peerA, silentMs: 9_000)], 109))
        // The application reconnects to a neighbouring address of the same service.
        #expect(!suspected([Self.syn(2, to: [203, 0, 113, 99], timeouts: 3)], 120))
        // Another service stalls within the minute: nothing yet; after it: checked.
        let other = TCPSocketInfo(cookie: 3, state: .synSent, source: Self.me, destination: Self.peerC, timeoutsInARow: 2,
                                  sinceDataReceivedMs: 86_400_000, sinceAckReceivedMs: 86_400_000)
        #expect(!suspected([other], 150))
        #expect(suspected([other], 170))
        detector.checked(online: true, at: at(171))
        // A third prefix: the quiet time has doubled.
        let third = TCPSocketInfo(cookie: 4, state: .synSent, source: Self.me, destination: [198, 18, 0, 1], timeoutsInARow: 2,
                                  sinceDataReceivedMs: 86_400_000, sinceAckReceivedMs: 86_400_000)
        #expect(!suspected([third], 171 + 100))
        #expect(suspected([third], 171 + 121))
        // That check found the network down: the next stall is checked at once, even to the first prefix after its back-off.
        detector.checked(online: false, at: at(300))
        let later = TCPSocketInfo(cookie: 5, state: .synSent, source: Self.me, destination: Self.peerA, timeoutsInARow: 2,
                                  sinceDataReceivedMs: 86_400_000, sinceAckReceivedMs: 86_400_000)
        #expect(!suspected([later], 104 + 1_790))
        #expect(suspected([later], 104 + 1_810))
    }
}

extension StallDetectorTests {
    /// One upload to one server stalls (the server died): watch checks once, finds the network
    /// online, and the same stall raises nothing more; the table goes back to the idle pace.
    @Test func watchChecksAOneServerStallOnceThenBacksOff() throws {
        let clock = ScriptedClock()
        let sockets = ScriptedSockets()
        var silentMs = 0
        func dead() -> [TCPSocketInfo] { [Self.upload(1, to: Self.peerA, timeouts: silentMs >= 1_000 ? 4 : 0, silentMs: silentMs)] }
        sockets.table = dead()
        let step: (Duration?) -> ChangeWaiter.Wake = { timeout in
            clock.advance(timeout ?? .zero)
            silentMs += Int((timeout ?? .zero).components.seconds) * 1000
            sockets.table = dead()
            return .timer
        }
        let events = ScriptedWatchEvents(Array(repeating: step, count: 6))
        let handler = RecordingHandler(clock: clock)
        let loop = WatchLoop(checker: Checker(source: ScriptedPaths(Kit.dualStack), makeRunner: { ScriptedRunner { _, _ in Kit.ok(2) } }),
                             events: events, options: Kit.options(), settings: WatchSettings(interval: .seconds(600), hold: .zero),
                             clock: clock, jitter: .off, handler: handler, sockets: sockets)
        try loop.run()
        #expect(handler.summary == ["start online start"], "\(handler.summary)")
        #expect(handler.checks.count == 2 && handler.checks.last?.counters.stallSuspected == 1)
        // In flight at first (3 s), then stalled: checked; then explained by that check: 30 s.
        #expect(events.timeouts.suffix(3) == [StallDetector.idlePoll, StallDetector.idlePoll, StallDetector.idlePoll], "\(events.timeouts)")
    }
}

extension StallDetectorTests {
    /// A download its reader takes slower than the link (`curl --limit-rate`, a player): data
    /// waiting in its receive queue (`queue` bytes), the window it last advertised `window`.
    static func paced(queue: Int, window: Int?, received: UInt64 = 40_000_000, silentMs: Int) -> [TCPSocketInfo] {
        [TCPSocketInfo(cookie: 1, state: .established, source: me, destination: peerA, sinceDataReceivedMs: silentMs,
                       sinceAckReceivedMs: 60_000, bytesAcked: 100, bytesReceived: received, receiveQueue: queue, receiveWindow: window)]
    }

    struct ReaderCase: Sendable, CustomTestStringConvertible {
        var label: String
        /// The third dump, 3 s after the reader was seen caught up.
        var then: [TCPSocketInfo]
        var suspected: Bool
        var testDescription: String { label }
    }

    static let readerCases: [ReaderCase] = [
        ReaderCase(label: "caught up, window open, nothing for 3 s: the sender could send and did not: suspected",
                   then: paced(queue: 0, window: 3_000_000, silentMs: 9_300), suspected: true),
        ReaderCase(label: "the kernel without rcv_wnd: the empty queue alone says the reader caught up: suspected",
                   then: paced(queue: 0, window: nil, silentMs: 9_300), suspected: true),
        ReaderCase(label: "caught up, and new data arrived: not",
                   then: paced(queue: 0, window: 3_000_000, received: 40_500_000, silentMs: 200), suspected: false),
        ReaderCase(label: "the window open but megabytes still queued (a reader that drains in bursts): the sender could send: suspected",
                   then: paced(queue: 20_000_000, window: 3_000_000, silentMs: 9_300), suspected: true),
        ReaderCase(label: "the kernel without rcv_wnd, data still queued: waiting on its reader, not",
                   then: paced(queue: 900_000, window: nil, silentMs: 9_300), suspected: false),
        ReaderCase(label: "the window shut again, the queue full: waiting on its reader, not",
                   then: paced(queue: 6_000_000, window: 0, silentMs: 9_300), suspected: false),
        ReaderCase(label: "the queue empty but the window below a segment: the sender may not send, not",
                   then: paced(queue: 0, window: 512, silentMs: 9_300), suspected: false),
    ]

    /// The reader held its sender back (2.6 MB queued, window shut, the last data 3.3 s old),
    /// then caught up and the window opened: from that dump on its sender could send, and
    /// silence counts from there.
    @Test(arguments: readerCases)
    func aReaderThatCaughtUp(_ example: ReaderCase) {
        var detector = StallDetector()
        _ = detector.read(Self.paced(queue: 2_600_000, window: 0, silentMs: 3_300), path: Self.path, at: .seconds(100))
        let caughtUp = detector.judge(Self.paced(queue: 0, window: 3_000_000, silentMs: 6_300), path: Self.path, at: .seconds(103))
        #expect(!caughtUp.suspected && caughtUp.active == 1, "\(caughtUp)")
        let then = detector.judge(example.then, path: Self.path, at: .seconds(106))
        #expect(then.suspected == example.suspected, "\(then)")
    }

    /// A reader paused (SIGSTOP) with its queue full and its window shut, silent for minutes:
    /// waiting on its reader, never a stall, read at the idle pace; a check that ran meanwhile
    /// changes nothing.
    @Test func aPausedReaderIsNeverAStall() {
        var detector = StallDetector()
        // Streaming until the pause: data arriving at two dumps in a row.
        _ = detector.read(Self.paced(queue: 3_000_000, window: 90_000, received: 30_000_000, silentMs: 100), path: Self.path, at: .seconds(97))
        _ = detector.judge(Self.paced(queue: 6_000_000, window: 0, silentMs: 100), path: Self.path, at: .seconds(100))
        for step in 1...20 {
            let judgement = detector.judge(Self.paced(queue: 6_000_000, window: 0, silentMs: 100 + step * 30_000), path: Self.path,
                                           at: .seconds(100 + Int64(step) * 30))
            #expect(!judgement.suspected && judgement.active == 0, "\(judgement)")
            if step == 10 { detector.checked(online: true, at: .seconds(400)) }
        }
    }
}
