import NetprobeWire
import NetprobeVerdict
import NetprobeOutput
/// A fixed number of time buckets whose width doubles whenever time outruns them: a day of
/// records and a year of them both end as at most `capacity` buckets, so what the summary
/// keeps for its charts does not grow with the input. Times before the origin are clamped to
/// it (the summariser feeds times in order, from the origin on).
public struct TimeBuckets<Cell: BucketCell>: Sendable {
    public let origin: Int64
    public private(set) var width: Int64
    public private(set) var cells: [Cell] = []
    public let capacity: Int

    public init(origin: Int64, width: Int64 = 1000, capacity: Int) {
        precondition(width > 0 && capacity >= 2)
        self.origin = origin
        self.width = width
        self.capacity = capacity
    }

    /// The bucket for `time`, after widening the buckets until it fits.
    public mutating func index(for time: Int64) -> Int {
        let offset = max(0, time - origin)
        while offset / width >= Int64(capacity) { coarsen() }
        let index = Int(offset / width)
        if index >= cells.count { cells.append(contentsOf: repeatElement(Cell.empty, count: index + 1 - cells.count)) }
        return index
    }

    public subscript(index: Int) -> Cell {
        get { cells[index] }
        set { cells[index] = newValue }
    }

    /// Where bucket `index` starts.
    public func start(of index: Int) -> Int64 { origin + Int64(index) * width }

    private mutating func coarsen() {
        var merged: [Cell] = []
        merged.reserveCapacity((cells.count + 1) / 2)
        var index = 0
        while index < cells.count {
            merged.append(index + 1 < cells.count ? cells[index].merged(with: cells[index + 1]) : cells[index])
            index += 2
        }
        cells = merged
        width *= 2
    }
}

public protocol BucketCell: Sendable {
    static var empty: Self { get }
    func merged(with other: Self) -> Self
}

/// Time spent in each verdict within one bucket (milliseconds).
public struct StateTime: BucketCell, Equatable {
    public var online: Int64 = 0
    public var portal: Int64 = 0
    public var offline: Int64 = 0

    public static var empty: StateTime { StateTime() }

    public func merged(with other: StateTime) -> StateTime {
        StateTime(online: online + other.online, portal: portal + other.portal, offline: offline + other.offline)
    }

    public var total: Int64 { online + portal + offline }

    mutating func add(_ verdict: Verdict, _ ms: Int64) {
        switch verdict {
        case .online: online += ms
        case .portal: portal += ms
        case .offline: offline += ms
        }
    }
}

/// Probe latencies within one bucket.
public struct LatencyCell: BucketCell, Equatable {
    public var count = 0
    public var sum = 0.0
    public var min = Double.infinity
    public var max = 0.0

    public static var empty: LatencyCell { LatencyCell() }

    public func merged(with other: LatencyCell) -> LatencyCell {
        LatencyCell(count: count + other.count, sum: sum + other.sum, min: Swift.min(min, other.min), max: Swift.max(max, other.max))
    }

    public var average: Double? { count == 0 ? nil : sum / Double(count) }

    mutating func add(_ ms: Double) {
        count += 1
        sum += ms
        min = Swift.min(min, ms)
        max = Swift.max(max, ms)
    }
}

extension TimeBuckets where Cell == StateTime {
    /// Adds the span [from, to) in `verdict`, split over the buckets it covers.
    public mutating func add(_ verdict: Verdict, from: Int64, to: Int64) {
        guard to > from else {
            _ = index(for: from)
            return
        }
        let last = index(for: to - 1)
        var index = Int(max(0, from - origin) / width)
        while index <= last {
            let start = self.start(of: index)
            let overlap = min(to, start + width) - max(from, start)
            if overlap > 0 { cells[index].add(verdict, overlap) }
            index += 1
        }
    }
}
