#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import NetprobeWire
import NetprobeVerdict
import NetprobeOutput
import NetprobeSystem
import NetprobeNetwork
import NetprobeCheck

/// What wakes `watch` between checks: the real one is `ChangeWaiter`; tests script one.
/// Unlike `ChangeSource` it is given how long it may sleep, not an instant, so a scripted
/// clock can drive the loop's timers.
public protocol WatchEvents: AnyObject {
    func beginCheck()
    func next(within timeout: Duration?, decisive: () -> Bool) throws -> ChangeWaiter.Wake
}

extension ChangeWaiter: WatchEvents {
    public func next(within timeout: Duration?, decisive: () -> Bool) throws -> Wake {
        try next(until: timeout.map { ContinuousClock.now + $0 }, decisive: decisive)
    }
}

/// Where the loop's results go: the records (stdout and the hook), the textfile, and what a
/// signal means. The command implements it; tests record what they get.
public protocol WatchHandler: AnyObject {
    /// Prints the record and runs the hook; false ends watch (stdout is gone, or a stop signal came).
    func deliver(_ record: WatchRecord) -> Bool
    /// Prints a record that no hook is given: the heartbeat (`alive`) and the last record (`stop`).
    /// False when stdout is gone.
    func write(_ record: WatchRecord) -> Bool
    /// After every check: the state last reported (held states are not reported yet) and the counters.
    func checked(reported: Report, counters: WatchCounters)
    /// A signal the waiter wakes for arrived.
    func signalArrived() -> WatchSignalAction
    /// A check could not be made (the kernel's tables could not be read, the HTTP client could
    /// not start): watch goes on, and tries again in `retryIn`.
    func checkFailed(_ error: CheckError, retryIn: Duration)
    /// After a check that taught something of a network (`Checker.networkMemory` changed): the
    /// command keeps it in its state directory.
    func remember(_ memory: NetworkMemory)
}

extension WatchHandler {
    /// A watch without a state directory remembers only while it runs.
    public func remember(_ memory: NetworkMemory) {}
}

public enum WatchSignalAction {
    /// SIGINT, SIGTERM: end watch.
    case stop
    /// SIGHUP with a valid configuration: check again with these options.
    case reload(CheckOptions)
    /// Nothing to act on (a reload that failed): keep waiting.
    case keepWaiting
}

public struct WatchSettings: Sendable {
    /// Between re-checks while online.
    public var interval: Duration
    /// How long a new state must hold before it is reported (`HoldGate`).
    public var hold: Duration
    /// How long before a portal session's end to warn; nil for the default (`PortalSessionWatch`).
    public var sessionWarning: Duration?
    public var allPaths: Bool
    /// The longest time between two records while nothing changes (an `alive` record fills it);
    /// nil writes none.
    public var heartbeat: Duration?

    /// The command's default heartbeat (the reasoning is in the man page).
    public static let defaultHeartbeat: Duration = .seconds(900)

    public init(interval: Duration, hold: Duration, sessionWarning: Duration? = nil, allPaths: Bool = false,
                heartbeat: Duration? = nil) {
        self.interval = interval
        self.hold = hold
        self.sessionWarning = sessionWarning
        self.allPaths = allPaths
        self.heartbeat = heartbeat
    }
}

/// `netprobe watch`: check, report what changed (once it held), then sleep until the next
/// reason to look: a kernel or resolver change, the interval or back-off timer (spread by
/// `Jitter`), a re-check confirming a held state, the portal session's warning and end, a
/// resume from suspend, or SIGHUP. Each check records why it ran (`WatchTrigger`).
///
/// The log it writes can be trusted for time, not only for changes: no two records are further
/// apart than the heartbeat (an `alive` record fills a quiet stretch, written with a check when
/// one falls near its time, so it costs no wake-up of its own while checks are more frequent),
/// and a clean end writes a `stop` record. A log that falls silent for longer than the
/// heartbeat, or a `start` with no `stop` before it, shows a watch that died.
public final class WatchLoop {
    /// A wait during which CLOCK_BOOTTIME ran this much further than CLOCK_MONOTONIC had the
    /// machine asleep (both tick at the same rate while it is awake).
    public static let sleepThreshold: Duration = .seconds(1)

    private let checker: Checker
    private let events: any WatchEvents
    private var options: CheckOptions
    private let settings: WatchSettings
    private let clock: any WatchClock
    private var jitter: Jitter
    private let handler: any WatchHandler
    public private(set) var counters = WatchCounters()
    /// Passive stall detection (nil: off): the socket table and what it made of the last dumps.
    private let sockets: (any TCPSocketSource)?
    private var stall = StallDetector()
    /// When to read the socket table next (boot-time clock); nil while not online.
    private var stallPollAt: Duration?
    /// The state last reported: what `alive` and `stop` repeat.
    private var reported: Report?
    /// When the last record was written (boot-time clock): the heartbeat counts from it.
    private var lastRecordAt: Duration = .zero
    /// The last moment the reported state was proven (a check's start, a heartbeat), by both
    /// clocks; and whether the check since failed, so that a stop claims no more than that.
    private var provenAt: (wall: Date, reading: ClockReading)?
    private var lastCheckFailed = false

    public init(checker: Checker, events: any WatchEvents, options: CheckOptions, settings: WatchSettings,
                clock: any WatchClock = SystemWatchClock(), jitter: Jitter = Jitter(), handler: any WatchHandler,
                sockets: (any TCPSocketSource)? = nil) {
        self.checker = checker
        self.events = events
        self.options = options
        self.settings = settings
        self.clock = clock
        self.jitter = jitter
        self.handler = handler
        self.sockets = sockets
    }

    /// Returns when the handler says to stop (a stop signal, stdout gone), after the `stop` record.
    /// A failed check never ends it; what does (poll(2) failing) is thrown after the `stop` record.
    public func run() throws {
        // Every end, whatever caused it: the state held until now, nothing observed after.
        // (When stdout is what went away, the write fails quietly.)
        // After a failed check the state is proven only up to the last check or heartbeat before
        // it: the stop is stamped with that moment.
        defer {
            if let reported {
                let (wall, reading) = lastCheckFailed ? provenAt ?? (clock.wallNow(), clock.now()) : (clock.wallNow(), clock.now())
                _ = handler.write(.holding(.stop, reported, at: wall, allPaths: settings.allPaths).with(settings, stamp(reading)))
            }
        }
        try watch()
    }

    /// The boot clocks as a record made at `reading` carries them.
    private func stamp(_ reading: ClockReading) -> RecordClock {
        RecordClock(bootID: clock.bootID, reading: reading)
    }

    /// Delivers a record (with the hook) made by the check that started at `started`, and notes
    /// when: false ends watch.
    private func deliver(_ record: WatchRecord, checkStarted started: ClockReading) -> Bool {
        lastRecordAt = clock.now().boottime
        return handler.deliver(record.with(settings, stamp(started)))
    }

    /// Writes the heartbeat, or the mark of a resume or a clock step (`why`): false when stdout is gone.
    private func heartbeat(_ why: WatchTrigger = .interval) -> Bool {
        guard let reported else { return true }
        let reading = clock.now(), wall = clock.wallNow()
        lastRecordAt = reading.boottime
        provenAt = (wall, reading)
        var record = WatchRecord.holding(.alive, reported, at: wall, allPaths: settings.allPaths)
        record.trigger = why
        return handler.write(record.with(settings, stamp(reading)))
    }

    private func watch() throws {
        var trigger = WatchTrigger.start
        var hold = HoldGate(hold: settings.hold)
        var session = PortalSessionWatch(lead: settings.sessionWarning)
        var backoff = Backoff()
        /// What a wait's outcome means for the next check; false: watch ends.
        func proceed(_ outcome: WaitOutcome) -> Bool {
            switch outcome {
            case .check(let why):
                trigger = why
                if why != .interval && why != .retry && why != .expiry && why != .start { backoff.reset() }
            case .reload(let fresh):
                options = fresh
                hold.reset()
                trigger = .signal
            case .stop:
                return false
            }
            return true
        }
        while true {
            events.beginCheck()
            let started = clock.now()
            session.checking(at: started.boottime)
            let report: Report
            let memory = checker.networkMemory
            do {
                report = try checker.run(leanAllowed(hold) ? options : options.full)
            } catch {
                // One check's failure (an interrupted dump that kept failing, say) is no reason to
                // end watch: said on stderr, and tried again on the back-off's pace. No heartbeat
                // meanwhile: nothing proves the state until a check succeeds again.
                let retryIn = jitter.spread(backoff.next())
                lastCheckFailed = true
                handler.checkFailed(error, retryIn: retryIn)
                // Until a first check succeeds, its retries are still the start.
                guard proceed(try wait(until: (clock.now().boottime + retryIn, reported == nil ? .start : .retry),
                                       heartbeats: false)) else { return }
                continue
            }
            lastCheckFailed = false
            provenAt = (report.timestamp, started)
            counters.checks += 1
            if report.lean { counters.leanChecks += 1 }
            if checker.networkMemory != memory { handler.remember(checker.networkMemory) }
            counters.lastCheck = report.timestamp
            counters.count(bytes: report.bytesByProbe)
            var recorded = false
            switch hold.judge(report, reported: reported, at: started.boottime, trigger: trigger, allPaths: settings.allPaths) {
            case .report(let fresh, let why):
                let previous = reported
                reported = fresh
                backoff.reset()
                if var record = WatchRecord.after(previous, fresh, allPaths: settings.allPaths) {
                    record.trigger = why
                    if record.event == .change { counters.changes += 1 }
                    guard deliver(record, checkStarted: started) else { return }
                    recorded = true
                }
            case .unchanged:
                reported = report  // the same state, its freshest evidence
            case .holding:
                break
            }
            guard let shown = reported else { return }  // unreachable: the first check is always reported
            if session.observe(report, at: started.boottime) {
                guard deliver(WatchRecord.expiring(report, reported: shown, sessionEnd: session.session?.endDate,
                                                   allPaths: settings.allPaths), checkStarted: started) else { return }
                recorded = true
            }
            // After a sleep, a record marks the moment watch observes again, whatever the check found.
            if trigger == .resume && !recorded {
                guard heartbeat(.resume) else { return }
            }
            counters.sessionEnd = session.session?.endDate
            handler.checked(reported: shown, counters: counters)
            MemoryReturn.afterCheck()
            // Ready to send the moment something changes: libcurl is loaded now, not then.
            checker.prepare()

            let online = report.verdict == .online
            // Online proves the way out as of the check's start; after a stall, it also starts the back-off.
            stall.checked(online: online, at: started.boottime)
            sockets?.routesChanged()
            surveySockets(online: online)
            let regular = clock.now().boottime + jitter.spread(online ? settings.interval : backoff.next())
            let due = [(regular, online ? WatchTrigger.interval : .retry), hold.recheckAt.map { ($0, WatchTrigger.retry) },
                       session.nextCheck.map { ($0, WatchTrigger.expiry) }]
                .compactMap { $0 }.min { $0.0 < $1.0 }!
            // The heartbeat would fall due before the next wake-up: written now, with this check,
            // once half of it has passed, rather than waking up for it alone.
            if let beat = settings.heartbeat, lastRecordAt + beat <= due.0, clock.now().boottime - lastRecordAt >= beat / 2 {
                guard heartbeat() else { return }
            }
            guard proceed(try wait(until: due, heartbeats: true)) else { return }
        }
    }

    /// Whether the next check may be lean (`CheckOptions.lean`, when the checker's memory also
    /// says the network was proven open): only while the state reported is online on a quorum of
    /// validated probes and no other state is being confirmed, so that a lean re-check can
    /// confirm that state and never make one (the start, and any state after another, get a
    /// full check).
    private func leanAllowed(_ hold: HoldGate) -> Bool {
        guard let reported, hold.candidate == nil else { return false }
        return reported.verdict == .online && reported.reason == .probesValidated
    }

    /// After a check: while online, the socket table is read now (this wake-up is paid for
    /// already) to pick the polling pace; a suspicion is not acted on, the check just ran.
    private func surveySockets(online: Bool) {
        guard let sockets, online, let table = try? sockets.sockets() else {
            stallPollAt = nil
            return
        }
        let now = clock.now().boottime
        stallPollAt = now + StallDetector.nextPoll(after: stall.read(table, path: checker.lastPathAddresses, at: now))
    }

    /// The stall poll's own timer: true when the path is suspected (check it now).
    private func pollSockets() -> Bool {
        guard let sockets, let table = try? sockets.sockets() else {
            stallPollAt = nil  // the table cannot be read: no detection, no more wake-ups for it
            return false
        }
        let now = clock.now().boottime
        let judgement = stall.judge(table, path: checker.lastPathAddresses, at: now)
        stallPollAt = now + StallDetector.nextPoll(after: judgement)
        guard judgement.suspected else { return false }
        counters.stallSuspected += 1
        return true
    }

    private enum WaitOutcome {
        case check(WatchTrigger)
        case reload(CheckOptions)
        case stop
    }

    /// Sleeps until the next reason to check, writing the heartbeat when it falls due first
    /// (`heartbeats`: the last check succeeded, and its state is what the heartbeat repeats).
    private func wait(until due: (at: Duration, trigger: WatchTrigger), heartbeats: Bool) throws -> WaitOutcome {
        let options = options
        while true {
            let before = clock.now()
            let beat = heartbeats && reported != nil ? settings.heartbeat.map { lastRecordAt + $0 } : nil
            let wakeAt = [due.at, beat, stallPollAt].compactMap { $0 }.min()!
            let wake = try events.next(within: max(wakeAt - before.boottime, .zero), decisive: { checker.gateMoved(options) })
            // Asleep during the wait: whatever woke us, the network may be another one now.
            if clock.now().slept(since: before) >= Self.sleepThreshold { return .check(.resume) }
            switch wake {
            case .pathChanged: return .check(.link)
            case .resolverChanged: return .check(.resolv)
            case .leaseChanged:
                // A renewal that announced the same things is no reason to check.
                if checker.leaseMoved(options) { return .check(.lease) }
            case .timer:
                let now = clock.now().boottime
                if now >= due.at { return .check(due.trigger) }
                if let at = stallPollAt, now >= at {
                    if pollSockets() { return .check(.stall) }
                    continue
                }
                // The heartbeat's own timer: nothing to check, the state is as reported.
                if let beat, now >= beat {
                    guard heartbeat() else { return .stop }
                }
            case .clockJumped:
                // The wall clock was set: timers run on the boot-time clock, nothing is due; a
                // record marks the step, so the log's time on either side of it is not mistaken
                // for time that passed.
                if heartbeats { guard heartbeat(.clock) else { return .stop } }
            case .outputClosed: return .stop
            case .signal:
                switch handler.signalArrived() {
                case .stop: return .stop
                case .reload(let fresh): return .reload(fresh)
                case .keepWaiting: continue
                }
            }
        }
    }
}

extension WatchRecord {
    /// The record as this watch writes it: with its heartbeat and the boot clocks of its moment.
    func with(_ settings: WatchSettings, _ clock: RecordClock) -> WatchRecord {
        var record = self
        record.heartbeat = settings.heartbeat
        record.clock = clock
        return record
    }
}
