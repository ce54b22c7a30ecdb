@testable import NetprobeWire
@testable import NetprobeVerdict
@testable import NetprobeOutput
@testable import NetprobeReport

// The RFC 3339 reader of `netprobe report`: whatever comes in, an accepted timestamp writes
// back (in UTC, milliseconds) to text that reads to the same instant, and a rejected one is
// refused without a crash. Accepted text has the grammar's shape.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzTimestamp(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = UnsafeBufferPointer(start: data, count: size)
    guard let ms = RFC3339.parse(bytes) else { return 0 }
    precondition(size >= 20 && size <= 64, "accepted \(size) bytes")
    precondition(bytes[4] == UInt8(ascii: "-") && bytes[7] == UInt8(ascii: "-") && bytes[10] | 0x20 == UInt8(ascii: "t"),
                 "accepted a date of another shape")
    let written = SummaryText.timestamp(ms)
    precondition(RFC3339.milliseconds(written) == ms, "\(ms) written as \(written) reads back differently")
    return 0
}
