@testable import NetprobeWire
@testable import NetprobeVerdict
@testable import NetprobeOutput
@testable import NetprobeReport

// `netprobe report` on arbitrary bytes: lines cut by WatchLogLines (in two chunks at a point
// the input picks), each one read by the record reader, summarised, and rendered in every
// format. The accounting must add up whatever the order and content of the records, and no
// rendering may let markup or a terminal control from the input through, whatever the start,
// alive and stop records and the report's clock say.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzWatchLog(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    var input = FuzzInput(data, size)
    let window = Int(input.byte() % 8) + 1
    let bytes = input.rest
    let cut = bytes.isEmpty ? 0 : Int(data[0]) % (bytes.count + 1)
    var summarizer = WatchSummarizer(window: window)
    var lines = WatchLogLines(source: "fuzz")
    var skipped = 0
    bytes[..<cut].withUnsafeBytes { lines.consume($0, into: &summarizer) { _ in skipped += 1 } }
    bytes[cut...].withUnsafeBytes { lines.consume($0, into: &summarizer) { _ in skipped += 1 } }
    lines.finish(into: &summarizer) { _ in skipped += 1 }
    // The report's clock, from the input's last byte: none, a moment inside the usual range of
    // the logs' timestamps (a live tail, or a silent one), or the last one RFC 3339 can write.
    let clocks: [Int64?] = [nil, 1_772_445_600_000, 253_402_300_799_000]
    let summary = summarizer.finish(now: size == 0 ? nil : clocks[Int(data[size - 1]) % clocks.count])
    precondition(skipped == summary.malformed + summary.late, "every skipped line is counted once")
    precondition(summary.stops <= summary.records && summary.lostRuns <= summary.runs + 1, "runs miscounted")
    precondition(summary.notObserved <= summary.span, "more time unobserved than the span")
    precondition(summary.unproven < max(summary.records, 1), "more unproven stretches than gaps between records")
    for tracker in summary.trackers {
        precondition(tracker.online >= 0 && tracker.portal >= 0 && tracker.offline >= 0, "negative time")
        precondition(tracker.observed <= summary.span, "a path observed longer than the whole span")
        precondition(tracker.outages.totalMs <= tracker.offline && tracker.portals.totalMs <= tracker.portal, "periods beyond their time")
        let bucketed = tracker.timeline.cells.reduce(StateTime.empty) { $0.merged(with: $1) }
        precondition(bucketed.total == tracker.observed, "the timeline lost time")
    }
    // A network's time is the overall answer's time while a record named it: never more, in sum.
    let networkTime = summary.networks.reduce(Int64(0)) { $0 + $1.tracker.observed }
    precondition(networkTime <= (summary.overall?.observed ?? 0), "the networks observed longer than the overall answer")
    precondition(summary.networks.count <= WatchSummarizer.networkLimit, "networks beyond the cap")
    for network in summary.networks {
        precondition(network.tracker.timeline.cells.reduce(StateTime.empty) { $0.merged(with: $1) }.total == network.tracker.observed,
                     "a network's timeline lost time")
    }
    let text = SummaryText.format(summary)
    precondition(!text.unicodeScalars.contains { $0.value == 0x1B || (0x80...0x9F).contains($0.value) }, "a control got through")
    let html = SummaryHTML.format(summary)
    precondition(!html.contains("<script") && !html.contains("href=") && !html.contains("src="), "markup got through")
    let json = SummaryDocument.format(summary)
    do {
        _ = try JSONReader.parse(Array(json.utf8), limits: JSONReader.Limits(maxBytes: 1 << 26))
    } catch {
        preconditionFailure("the summary is not JSON: \(error)")
    }
    return 0
}
