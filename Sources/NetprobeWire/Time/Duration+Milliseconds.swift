/// Durations as the numbers reports, libcurl and poll(2) take. The one place the
/// seconds-and-attoseconds arithmetic is written (10^15 attoseconds make a millisecond).
extension Duration {
    /// Milliseconds with the fraction kept: report durations and probe timings.
    public var inMilliseconds: Double {
        let (seconds, attoseconds) = components
        return Double(seconds) * 1000 + Double(attoseconds) / 1e15
    }

    /// Seconds with the fraction kept: what the configuration's time-outs are written in.
    public var inSeconds: Double {
        let (seconds, attoseconds) = components
        return Double(seconds) + Double(attoseconds) / 1e18
    }

    /// Whole milliseconds, the fraction dropped: a length said in messages.
    public var wholeMilliseconds: Int64 {
        let (seconds, attoseconds) = components
        return seconds * 1000 + attoseconds / 1_000_000_000_000_000
    }

    /// A poll(2) time-out for this much time left: 0 once it has passed, else rounded up to
    /// the next millisecond (so poll never wakes a hair before the deadline and spins) and
    /// clamped to what poll takes.
    public var pollMilliseconds: Int32 {
        guard self > .zero else { return 0 }
        let (seconds, attoseconds) = components
        return Int32(clamping: seconds * 1000 + (attoseconds + 999_999_999_999_999) / 1_000_000_000_000_000)
    }
}
