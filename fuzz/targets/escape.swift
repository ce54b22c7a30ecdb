@testable import NetprobeWire
@testable import NetprobeVerdict
@testable import NetprobeOutput
@testable import NetprobeReport

// The terminal escaper: whatever comes in, nothing that drives a terminal comes out, and
// the limit holds (counted in input characters, plus the cut mark).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzTerminalText(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    var input = FuzzInput(data, size)
    let limit = Int(input.byte())
    let text = String(decoding: input.rest, as: UTF8.self)
    let out = TerminalText.escape(text, limit: limit)
    for scalar in out.unicodeScalars {
        let value = scalar.value
        precondition(!(value < 0x20 || (0x7F...0x9F).contains(value) || (0x202A...0x202E).contains(value) || (0x2066...0x2069).contains(value)),
                     "a control character U+\(String(value, radix: 16)) got through")
    }
    // Each input character becomes at most 8 output characters ("\u{202e}"), and "…" marks a cut.
    precondition(out.unicodeScalars.count <= 8 * min(limit, text.unicodeScalars.count) + 1, "the limit did not hold")
    return 0
}
