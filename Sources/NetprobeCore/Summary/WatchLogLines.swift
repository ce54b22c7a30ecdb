/// Cuts a byte stream (a file read in chunks) into lines for WatchSummarizer, numbering them.
/// A line longer than the record cap is not buffered: its bytes are counted and dropped up to
/// the next newline, so one endless line costs no memory. A last line without a newline (a log
/// cut mid-write) is still a line: if its record is incomplete it is reported as malformed.
public struct WatchLogLines: Sendable {
    public let source: String
    private var pending: [UInt8] = []
    private var overlong = 0
    private var number = 0

    public init(source: String) {
        self.source = source
    }

    public mutating func consume(_ chunk: UnsafeRawBufferPointer, into summarizer: inout WatchSummarizer,
                                 warn: (WatchSummarizer.Skipped) -> Void) {
        let bytes = chunk.bindMemory(to: UInt8.self)
        let cap = WatchLogRecord.limits.maxBytes
        var start = 0
        while start < bytes.count {
            let newline = bytes[start...].firstIndex(of: 0x0A)
            let end = newline ?? bytes.count
            if overlong > 0 || pending.count + (end - start) > cap {
                overlong += pending.count + (end - start)
                pending.removeAll()
            } else {
                pending.append(contentsOf: bytes[start..<end])
            }
            guard newline != nil else { return }
            endLine(into: &summarizer, warn: warn)
            start = end + 1
        }
    }

    /// The input ended: a last line without its newline is still read.
    public mutating func finish(into summarizer: inout WatchSummarizer, warn: (WatchSummarizer.Skipped) -> Void) {
        if !pending.isEmpty || overlong > 0 { endLine(into: &summarizer, warn: warn) }
    }

    private mutating func endLine(into summarizer: inout WatchSummarizer, warn: (WatchSummarizer.Skipped) -> Void) {
        number += 1
        let skipped = overlong > 0
            ? summarizer.addOverlong(source: source, line: number, bytes: overlong)
            : summarizer.add(line: pending, source: source, line: number)
        if let skipped { warn(skipped) }
        pending.removeAll(keepingCapacity: true)
        overlong = 0
    }
}
