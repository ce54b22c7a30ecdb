@testable import NetprobeReport

/// Watch's JSON Lines, given as strings, read and summarised as `netprobe report` does: the
/// report tests' one way in.
enum WatchLogFixture {
    static func summarise(_ lines: [String], window: Int = WatchSummarizer.defaultWindow,
                          now: Int64? = nil) -> (summary: WatchSummary, skipped: [WatchSummarizer.Skipped]) {
        var summarizer = WatchSummarizer(window: window)
        var skipped: [WatchSummarizer.Skipped] = []
        var reader = WatchLogLines(source: "log")
        var bytes = Array(lines.joined(separator: "\n").utf8)
        bytes.withUnsafeMutableBytes { reader.consume(UnsafeRawBufferPointer($0), into: &summarizer) { skipped.append($0) } }
        reader.finish(into: &summarizer) { skipped.append($0) }
        return (summarizer.finish(now: now), skipped)
    }
}
