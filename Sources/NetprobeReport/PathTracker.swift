import NetprobeWire
import NetprobeVerdict
import NetprobeOutput
/// One path's state machine over the records, in time order. It keeps totals, counters and
/// bounded lists, never the records: memory is the same for a day and for a year.
///
/// The state a record gives holds until the next record that mentions the path (watch prints
/// changes, and heartbeats between them); a record without the path ends it there (the path
/// went away); a `stop` ends it; a watch that ended without one proves its state only up to its
/// last record (`lost`); the state of a watch still running runs on to the report's clock.
public struct PathTracker: Sendable {
    /// At most this many reason codes and portal URLs are told apart per path; later new ones
    /// are added up under `otherReasons` / `otherPortalURLs`, so a hostile log cannot grow them.
    public static let distinctLimit = 32
    /// The longest outage and portal periods kept for the timeline's labels.
    public static let notableLimit = 40
    /// Timeline buckets per path.
    public static let timelineCapacity = 1024

    public struct Period: Sendable, Equatable {
        public var verdict: Verdict
        public var start: Int64
        public var end: Int64
        /// The reason the period started with.
        public var reason: String
        /// Every reason code the period had, in order of appearance (bounded).
        public var reasons: [String]
        /// Still open at the last timestamp.
        public var ongoing: Bool
        /// An outage's failed hop: the first its records named (nil: none named).
        public var fault: Fault? = nil
        public var duration: Int64 { end - start }
    }

    public struct Tally: Sendable, Equatable {
        public var count = 0
        public var totalMs: Int64 = 0
        public var longest: Period?
    }

    /// Outages by the hop that failed (`fault` nil: the records named none).
    public struct FaultTally: Sendable, Equatable {
        public var fault: Fault?
        public var count: Int
        public var ms: Int64
    }

    public struct ReasonTally: Sendable, Equatable {
        public var verdict: Verdict
        public var reason: String
        /// Periods with this verdict and reason (consecutive records with both unchanged are one).
        public var count: Int
        public var ms: Int64
    }

    public let key: PathKey?
    public private(set) var first: Int64?
    public private(set) var last: Int64?
    public private(set) var online: Int64 = 0
    public private(set) var portal: Int64 = 0
    public private(set) var offline: Int64 = 0
    public private(set) var outages = Tally()
    public private(set) var portals = Tally()
    public private(set) var reasons: [ReasonTally] = []
    /// Outages counted by fault, in order of first appearance (at most one per value and none).
    public private(set) var faults: [FaultTally] = []
    public private(set) var otherReasons = 0
    public private(set) var portalURLs: [(url: String, count: Int)] = []
    public private(set) var otherPortalURLs = 0
    /// The longest outage and portal periods, longest first.
    public private(set) var notable: [Period] = []
    public private(set) var timeline: TimeBuckets<StateTime>
    /// The state now and since when; nil while the path is absent or nothing is observed.
    public private(set) var current: (state: PathState, since: Int64)?
    /// The last state seen: kept across a stop or a lost watch, nil once the path went away.
    public private(set) var final: PathState?
    private var run: Period?

    public init(key: PathKey?, origin: Int64) {
        self.key = key
        timeline = TimeBuckets(origin: origin, capacity: Self.timelineCapacity)
    }

    public var observed: Int64 { online + portal + offline }

    /// The share of observed time online; nil when nothing was observed for any length of time.
    public var availability: Double? { observed > 0 ? Double(online) / Double(observed) : nil }

    /// The path is in a record at `time` with `state`.
    public mutating func see(_ state: PathState, at time: Int64) {
        advance(to: time)
        if first == nil { first = time }
        last = time
        if let current, current.state == state { return }
        let verdictChanged = current?.state.verdict != state.verdict
        if verdictChanged { closeRun(at: time, ongoing: false) }
        if current?.state.verdict != state.verdict || current?.state.reason != state.reason {
            tallyReason(state, count: 1, ms: 0)
        }
        if let url = state.portalURL, url != current?.state.portalURL { countPortalURL(url) }
        if verdictChanged {
            run = Period(verdict: state.verdict, start: time, end: time, reason: state.reason, reasons: [state.reason], ongoing: false,
                         fault: state.fault)
        } else if var open = run {
            if !open.reasons.contains(state.reason), open.reasons.count < 8 { open.reasons.append(state.reason) }
            if open.fault == nil { open.fault = state.fault }
            run = open
        }
        current = (state, time)
        final = state
    }

    /// A record at `time` does not have the path: its state ends there.
    public mutating func absent(at time: Int64) {
        final = nil
        stop(at: time)
    }

    /// watch stopped at `time` (a `stop` record): the state held until then; nothing is observed after.
    public mutating func stop(at time: Int64) {
        guard current != nil else { return }
        advance(to: time)
        last = time
        closeRun(at: time, ongoing: false)
        current = nil
    }

    /// Nothing proves the state after `time` until the next record (the machine slept, the wall
    /// clock was stepped, or watch was silent for longer than its heartbeat): it ends there, as
    /// at a stop, and the next record starts afresh.
    public mutating func unproven(after time: Int64) {
        stop(at: time)
    }

    /// The watch that wrote the state ended without a `stop` (a `start` came next, or it fell
    /// silent for longer than its heartbeat): the state is proven up to its last record only.
    public mutating func lost() {
        guard current != nil, let last else { return }
        closeRun(at: last, ongoing: false)
        current = nil
    }

    /// The input ended: the state runs on to `time`, the report's clock while the watch that
    /// wrote it is still running, else its last record (a log without heartbeats proves no more).
    public mutating func finish(at time: Int64) {
        guard current != nil else { return }
        advance(to: time)
        last = time
        closeRun(at: time, ongoing: true)
    }

    /// Accounts the current state's time up to `time`.
    private mutating func advance(to time: Int64) {
        guard let (state, since) = current, time > since else { return }
        let ms = time - since
        switch state.verdict {
        case .online: online += ms
        case .portal: portal += ms
        case .offline: offline += ms
        }
        tallyReason(state, count: 0, ms: ms)
        timeline.add(state.verdict, from: since, to: time)
        current = (state, time)
    }

    private mutating func closeRun(at time: Int64, ongoing: Bool) {
        guard var period = run else { return }
        run = nil
        period.end = time
        period.ongoing = ongoing
        switch period.verdict {
        case .online: return
        case .offline:
            Self.count(period, in: &outages)
            if let index = faults.firstIndex(where: { $0.fault == period.fault }) {
                faults[index].count += 1
                faults[index].ms += period.duration
            } else {
                faults.append(FaultTally(fault: period.fault, count: 1, ms: period.duration))
            }
        case .portal: Self.count(period, in: &portals)
        }
        // Bounded: insertion into a short list sorted by duration, longest first.
        let position = notable.firstIndex { $0.duration < period.duration } ?? notable.endIndex
        if position < Self.notableLimit {
            notable.insert(period, at: position)
            if notable.count > Self.notableLimit { notable.removeLast() }
        }
    }

    private static func count(_ period: Period, in tally: inout Tally) {
        tally.count += 1
        tally.totalMs += period.duration
        if tally.longest.map({ period.duration > $0.duration }) ?? true { tally.longest = period }
    }

    private mutating func tallyReason(_ state: PathState, count: Int, ms: Int64) {
        if let index = reasons.firstIndex(where: { $0.reason == state.reason && $0.verdict == state.verdict }) {
            reasons[index].count += count
            reasons[index].ms += ms
        } else if reasons.count < Self.distinctLimit {
            reasons.append(ReasonTally(verdict: state.verdict, reason: state.reason, count: count, ms: ms))
        } else {
            otherReasons += count
        }
    }

    private mutating func countPortalURL(_ url: String) {
        if let index = portalURLs.firstIndex(where: { $0.url == url }) {
            portalURLs[index].count += 1
        } else if portalURLs.count < Self.distinctLimit {
            portalURLs.append((url, 1))
        } else {
            otherPortalURLs += 1
        }
    }
}
