import NetprobeWire
import NetprobeVerdict
import NetprobeOutput
/// `netprobe report`: watch's JSON Lines in, one summary out, streaming.
///
/// Lines are parsed one at a time; a malformed one is counted and reported, never fatal.
/// Records are put in time order through a bounded reorder window (a heap of the last
/// `window` records): anything out of order by fewer records than that is sorted, so a log
/// that fits in the window is sorted whole. A record older than one already summarised (out
/// of order by more than the window) is counted and skipped, not silently misplaced: the
/// accounting of the states around it is already done. Per-path state machines
/// (PathTracker) and bucketed latencies are all that is kept, so memory is bounded whatever
/// the input's length.
///
/// Time is counted as the log proves it: a state from its record to the next one; a `stop` ends
/// a watch's last state, and a `start` that no `stop` came before shows the watch before it died
/// after its last record. Between the two nothing is observed (neither online nor offline). The
/// last state runs on to the report's clock while the log's heartbeat says the watch is still
/// running (its last record is at most a heartbeat and a grace old), else it ends at its last record.
///
/// Within a run, a state is proven from its record only as long as watch was awake and writing:
/// up to the next record, unless the boot clocks the records carry say that less time passed
/// awake than the wall clock shows (the machine slept, or the wall clock was stepped ahead),
/// or the two records are further apart than the heartbeat and its grace (watch was stopped,
/// hung, or an older watch slept). Then the state ends that much time after its record, and
/// the rest, until the next record, is not observed (`unproven`).
public struct WatchSummarizer: Sendable {
    public static let defaultWindow = 4096
    /// Paths told apart; records' further paths are left out (and counted).
    public static let pathLimit = 32
    /// Networks told apart; records of further networks count in no network's time (and are counted).
    public static let networkLimit = 32
    /// Operators in the latency chart; further ones are left out (and counted).
    public static let operatorLimit = 16
    /// Latency buckets per operator (min/avg/max each).
    public static let latencyCapacity = 1000

    public struct Skipped: Sendable, Equatable {
        public var source: String
        public var line: Int
        public var message: String
    }

    public let window: Int
    public private(set) var lines = 0
    public private(set) var records = 0
    public private(set) var malformed = 0
    /// Records older than one already summarised: skipped.
    public private(set) var late = 0
    /// Records that arrived before an older one and were put back in order by the window.
    public private(set) var reordered = 0
    public private(set) var droppedPaths = 0
    public private(set) var droppedOperators = 0
    /// Records whose network was left out: seen after `networkLimit` others.
    public private(set) var droppedNetworks = 0
    /// `start` records: the watch runs the log holds.
    public private(set) var runs = 0
    /// `stop` records: runs that ended cleanly.
    public private(set) var stops = 0
    /// Runs that ended without a `stop`: a `start` came next, or the log fell silent for longer than its heartbeat.
    public private(set) var lostRuns = 0
    /// A watch's records were fed since its last `stop` (or the input's beginning): its end is not known yet.
    private var runOpen = false
    /// The heartbeat of the watch that wrote the last record fed (milliseconds).
    private var heartbeatMs: Int64?
    /// The last record fed, as far as proving time from it goes.
    private var lastMark: Mark?
    /// Stretches within a run that no record proves (a sleep, a clock step, a silence): not observed.
    public private(set) var unproven = 0

    /// What a record says of its moment, to tell how long after it its state is proven.
    struct Mark: Sendable {
        var time: Int64
        var heartbeatMs: Int64?
        var bootID: String?
        var monotonicMs: Int64?

        init(_ record: WatchLogRecord) {
            time = record.time
            heartbeatMs = record.heartbeatMs
            bootID = record.bootID
            monotonicMs = record.monotonicMs
        }
    }

    /// The tolerance between the wall clock and the boot clocks: a record's timestamp is its
    /// check's start and its clocks are read around it, milliseconds apart.
    static let clockSlackMs: Int64 = 1000

    /// Where the state of `earlier` stops being proven on the way to `later`, a record of the
    /// same run; nil when it holds all the way. Awake time is what monotonic moved between
    /// them, when both name the same boot (its clocks compare; two unknown boots may be two
    /// boots, whose clocks do not); the wall clock can be stepped and counts a sleep. A stretch
    /// longer than the heartbeat and its grace proves nothing, whatever the records carry.
    static func provenUntil(_ earlier: Mark, _ later: WatchLogRecord) -> Int64? {
        let wall = later.time - earlier.time
        var proven = wall
        if let boot = earlier.bootID, boot == later.bootID, let from = earlier.monotonicMs, let to = later.monotonicMs, to >= from {
            proven = min(wall, to - from)
        }
        if let beat = earlier.heartbeatMs, proven > beat + grace(heartbeat: beat) { proven = 0 }
        return wall - proven > clockSlackMs ? earlier.time + proven : nil
    }

    private var heap: [Pending] = []
    private var sequence = 0
    private var newestSeen: Int64?
    private var lastFed: Int64?
    public private(set) var first: Int64?
    public private(set) var overall: PathTracker?
    public private(set) var paths: [PathKey: PathTracker] = [:]
    /// The overall answer's time, split by the network each record names (`network.id`).
    public private(set) var networks: [String: NetworkTracker] = [:]
    public private(set) var latency: [String: TimeBuckets<LatencyCell>] = [:]
    public private(set) var latencyTotals: [String: LatencyCell] = [:]

    private struct Pending: Sendable {
        var record: WatchLogRecord
        var sequence: Int
        var source: String
        var line: Int
        func precedes(_ other: Pending) -> Bool {
            record.time != other.record.time ? record.time < other.record.time : sequence < other.sequence
        }
    }

    public init(window: Int = WatchSummarizer.defaultWindow) {
        self.window = max(1, window)
    }

    /// One line of input (without its newline). Returns what was skipped, for a warning.
    public mutating func add(line bytes: [UInt8], source: String, line number: Int) -> Skipped? {
        bytes.withUnsafeBufferPointer { add(line: $0, source: source, line: number) }
    }

    /// One line, read where it lies in the input's buffer.
    public mutating func add(line bytes: UnsafeBufferPointer<UInt8>, source: String, line number: Int) -> Skipped? {
        lines += 1
        // Blank lines (a trailing newline too many, a hand-edited log) are not records.
        if bytes.allSatisfy({ $0 == 0x20 || $0 == 0x09 || $0 == 0x0D }) { return nil }
        let record: WatchLogRecord
        do {
            record = try WatchLogRecord.parse(bytes)
        } catch {
            malformed += 1
            return Skipped(source: source, line: number, message: error.message)
        }
        return add(record, source: source, line: number)
    }

    /// A line longer than the reader's cap, refused unread.
    public mutating func addOverlong(source: String, line number: Int, bytes: Int) -> Skipped {
        lines += 1
        malformed += 1
        return Skipped(source: source, line: number, message: "longer than \(WatchLogRecord.limits.maxBytes) bytes (\(bytes) bytes)")
    }

    public mutating func add(_ record: WatchLogRecord, source: String = "-", line: Int = 0) -> Skipped? {
        if let lastFed, record.time < lastFed {
            late += 1
            return Skipped(source: source, line: line, message: "a record from \(Self.show(record.time)), older than records already "
                           + "summarised (out of order by more than \(window) records): skipped")
        }
        records += 1
        if let newest = newestSeen, record.time < newest { reordered += 1 }
        newestSeen = max(newestSeen ?? record.time, record.time)
        push(Pending(record: record, sequence: sequence, source: source, line: line))
        sequence += 1
        if heap.count > window { feed(pop().record) }
        return nil
    }

    /// How long past its heartbeat a log may be silent and its watch still count as running: a
    /// check or a hook in progress delays the heartbeat, and a record's timestamp is its check's start.
    public static func grace(heartbeat: Int64) -> Int64 { max(60_000, heartbeat / 4) }

    /// Ends the input: drains the window and closes every open state. `now` is the report's
    /// clock (milliseconds since the epoch): the last state runs on to it while the watch that
    /// wrote it is running; nil ends every state at its last record.
    public mutating func finish(now: Int64? = nil) -> WatchSummary {
        while !heap.isEmpty { feed(pop().record) }
        var until = lastFed
        var live = false
        if runOpen, let last = lastFed {
            if let beat = heartbeatMs, let now, now >= last, now - last <= beat + Self.grace(heartbeat: beat) {
                live = true
                until = now
                overall?.finish(at: now)
                for key in paths.keys { paths[key]?.finish(at: now) }
                for id in networks.keys { networks[id]?.tracker.finish(at: now) }
            } else if let beat = heartbeatMs, let now, now - last > beat + Self.grace(heartbeat: beat) {
                // Silent for longer than its heartbeat: the watch died after its last record.
                lostRuns += 1
                overall?.lost()
                for key in paths.keys { paths[key]?.lost() }
                for id in networks.keys { networks[id]?.tracker.lost() }
            } else {
                // No heartbeat (an older watch), or a report clock before the log: the last record is all there is.
                overall?.finish(at: last)
                for key in paths.keys { paths[key]?.finish(at: last) }
                for id in networks.keys { networks[id]?.tracker.finish(at: last) }
            }
        }
        return WatchSummary(
            first: first, last: lastFed, until: until, now: now, live: live, stopped: lastFed != nil && !runOpen,
            runs: runs, stops: stops, lostRuns: lostRuns, unproven: unproven,
            lines: lines, records: records, malformed: malformed, late: late,
            reordered: reordered, window: window, droppedPaths: droppedPaths, droppedOperators: droppedOperators,
            droppedNetworks: droppedNetworks,
            overall: overall, paths: paths.values.sorted { ($0.key ?? PathKey(interface: nil, family: nil)) < ($1.key ?? PathKey(interface: nil, family: nil)) },
            latency: latency.keys.sorted().map { (name: $0, buckets: latency[$0]!, total: latencyTotals[$0]!) },
            networks: networks.values.sorted { ($0.tracker.first ?? 0, $0.id) < ($1.tracker.first ?? 0, $1.id) })
    }

    private mutating func feed(_ record: WatchLogRecord) {
        let time = record.time
        if first == nil { first = time }
        if record.event == .start {
            runs += 1
            if runOpen {
                // No stop before this start: the watch before died after its last record.
                lostRuns += 1
                overall?.lost()
                for key in paths.keys { paths[key]?.lost() }
                for id in networks.keys { networks[id]?.tracker.lost() }
            }
        }
        if runOpen, record.event != .start, let mark = lastMark, let cut = Self.provenUntil(mark, record) {
            unproven += 1
            overall?.unproven(after: cut)
            for key in paths.keys { paths[key]?.unproven(after: cut) }
            for id in networks.keys { networks[id]?.tracker.unproven(after: cut) }
        }
        lastFed = time
        lastMark = Mark(record)
        runOpen = record.event != .stop
        heartbeatMs = record.heartbeatMs
        let origin = first ?? time
        if overall == nil { overall = PathTracker(key: nil, origin: origin) }
        overall?.see(record.overall, at: time)
        seeNetwork(record, origin: origin)
        var present: Set<PathKey> = []
        for entry in record.paths where present.insert(entry.key).inserted {
            if paths[entry.key] == nil {
                guard paths.count < Self.pathLimit else {
                    droppedPaths += 1
                    continue
                }
                paths[entry.key] = PathTracker(key: entry.key, origin: origin)
            }
            paths[entry.key]?.see(entry.state, at: time)
        }
        for key in paths.keys where !present.contains(key) { paths[key]?.absent(at: time) }
        if record.event == .stop {
            stops += 1
            overall?.stop(at: time)
            for key in paths.keys { paths[key]?.stop(at: time) }
            for id in networks.keys { networks[id]?.tracker.stop(at: time) }
        }
        for sample in record.latencies {
            if latency[sample.operatorName] == nil {
                guard latency.count < Self.operatorLimit else {
                    droppedOperators += 1
                    continue
                }
                latency[sample.operatorName] = TimeBuckets(origin: origin, capacity: Self.latencyCapacity)
                latencyTotals[sample.operatorName] = .empty
            }
            if let index = latency[sample.operatorName]?.index(for: time) {
                latency[sample.operatorName]?[index].add(sample.totalMs)
            }
            latencyTotals[sample.operatorName]?.add(sample.totalMs)
        }
    }

    /// The overall state counts for the network the record names, from its record on; every
    /// other network's time ends there (the machine left it). A record that names none (an
    /// older watch, or no part of the network known) counts for no network.
    private mutating func seeNetwork(_ record: WatchLogRecord, origin: Int64) {
        let id = record.network?.id
        for other in networks.keys where other != id { networks[other]?.tracker.absent(at: record.time) }
        guard let network = record.network else { return }
        if networks[network.id] == nil {
            guard networks.count < Self.networkLimit else {
                droppedNetworks += 1
                return
            }
            networks[network.id] = NetworkTracker(id: network.id, name: network.name, tracker: PathTracker(key: nil, origin: origin))
        }
        networks[network.id]?.name = network.name
        networks[network.id]?.tracker.see(record.overall, at: record.time)
    }

    // A binary min-heap on (time, arrival): equal timestamps keep their input order.
    private mutating func push(_ item: Pending) {
        heap.append(item)
        var child = heap.count - 1
        while child > 0 {
            let parent = (child - 1) / 2
            guard heap[child].precedes(heap[parent]) else { break }
            heap.swapAt(child, parent)
            child = parent
        }
    }

    private mutating func pop() -> Pending {
        let top = heap[0]
        let last = heap.removeLast()
        if !heap.isEmpty {
            heap[0] = last
            var parent = 0
            while true {
                let left = 2 * parent + 1, right = left + 1
                var smallest = parent
                if left < heap.count, heap[left].precedes(heap[smallest]) { smallest = left }
                if right < heap.count, heap[right].precedes(heap[smallest]) { smallest = right }
                if smallest == parent { break }
                heap.swapAt(parent, smallest)
                parent = smallest
            }
        }
        return top
    }

    static func show(_ time: Int64) -> String { SummaryText.timestamp(time) }
}

/// One network's share of the overall answer: the time the records named it.
public struct NetworkTracker: Sendable {
    public var id: String
    /// What the last record that named it called it (SSID, else domain, else gateway).
    public var name: String
    public var tracker: PathTracker
}

/// What `report` prints, in every format.
public struct WatchSummary: Sendable {
    public var first: Int64?
    /// The last record's timestamp.
    public var last: Int64?
    /// Where the accounting ends: the report's clock while the last watch still runs, else the last record.
    public var until: Int64?
    /// The report's clock, when it was given.
    public var now: Int64?
    /// The watch that wrote the last record is running (its heartbeat says so at `now`).
    public var live: Bool
    /// The last record is a `stop`.
    public var stopped: Bool
    public var runs: Int
    public var stops: Int
    /// Runs that ended without a stop (died, killed, or silent past their heartbeat).
    public var lostRuns: Int
    /// Stretches within runs that no record proves (a sleep, a clock step, a silence): not observed.
    public var unproven: Int
    public var lines: Int
    public var records: Int
    public var malformed: Int
    public var late: Int
    public var reordered: Int
    public var window: Int
    public var droppedPaths: Int
    public var droppedOperators: Int
    /// Records whose network was beyond `WatchSummarizer.networkLimit`.
    public var droppedNetworks: Int
    /// The top-level answer of each record; nil when there was no record.
    public var overall: PathTracker?
    /// Each path's own, sorted by interface and family.
    public var paths: [PathTracker]
    public var latency: [(name: String, buckets: TimeBuckets<LatencyCell>, total: LatencyCell)]
    /// The overall answer's time by network, in the order they were first seen.
    public var networks: [NetworkTracker]

    public var span: Int64 { (first.flatMap { first in until.map { $0 - first } }) ?? 0 }

    /// Time within the span with no state known: watch stopped, dead, or not yet started.
    public var notObserved: Int64 { max(0, span - (overall?.observed ?? 0)) }

    /// The overall answer first, then the paths.
    public var trackers: [PathTracker] { (overall.map { [$0] } ?? []) + paths }
}
