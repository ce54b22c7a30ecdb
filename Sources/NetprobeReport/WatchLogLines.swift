import Glibc
import NetprobeWire
import NetprobeVerdict
import NetprobeOutput

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
            // memchr looks at a word or more at a time: the newline search is over the whole input.
            let newline = memchr(bytes.baseAddress! + start, 0x0A, bytes.count - start).map {
                UnsafePointer($0.assumingMemoryBound(to: UInt8.self)) - bytes.baseAddress!
            }
            let end = newline ?? bytes.count
            if overlong > 0 || pending.count + (end - start) > cap {
                overlong += pending.count + (end - start)
                pending.removeAll()
            } else if newline != nil, pending.isEmpty {
                // A line wholly inside the chunk is read where it lies, not copied.
                endLine(UnsafeBufferPointer(rebasing: bytes[start..<end]), into: &summarizer, warn: warn)
                start = end + 1
                continue
            } else {
                pending.append(contentsOf: bytes[start..<end])
            }
            guard newline != nil else { return }
            endPendingLine(into: &summarizer, warn: warn)
            start = end + 1
        }
    }

    /// The input ended: a last line without its newline is still read.
    public mutating func finish(into summarizer: inout WatchSummarizer, warn: (WatchSummarizer.Skipped) -> Void) {
        if !pending.isEmpty || overlong > 0 { endPendingLine(into: &summarizer, warn: warn) }
    }

    /// The line gathered in `pending` (it spanned chunks), or the overlong one counted instead.
    private mutating func endPendingLine(into summarizer: inout WatchSummarizer, warn: (WatchSummarizer.Skipped) -> Void) {
        if overlong > 0 {
            number += 1
            warn(summarizer.addOverlong(source: source, line: number, bytes: overlong))
            overlong = 0
        } else {
            let line = pending
            line.withUnsafeBufferPointer { endLine($0, into: &summarizer, warn: warn) }
        }
        pending.removeAll(keepingCapacity: true)
    }

    private mutating func endLine(_ line: UnsafeBufferPointer<UInt8>, into summarizer: inout WatchSummarizer,
                                  warn: (WatchSummarizer.Skipped) -> Void) {
        number += 1
        if let skipped = summarizer.add(line: line, source: source, line: number) { warn(skipped) }
    }
}
