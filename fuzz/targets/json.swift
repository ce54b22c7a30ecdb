@testable import NetprobeWire
@testable import NetprobeVerdict
@testable import NetprobeOutput
@testable import NetprobeReport

// The JSON reader on arbitrary bytes. Beyond "does not crash": a document it accepts must
// read back to the same value once written out again, and every failure must point inside
// the input.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzJSONReader(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    let limits = JSONReader.Limits(maxBytes: 1 << 20)
    do {
        let value = try JSONReader.parse(bytes, limits: limits)
        let again = try JSONReader.parse(Array(FuzzJSON.write(value).utf8), limits: limits)
        precondition(FuzzJSON.sameContent(value, again), "a value read, written and read again changed")
    } catch {
        precondition(error.position.offset <= bytes.count && error.position.line >= 1 && error.position.column >= 1,
                     "a failure outside the input: \(error)")
        precondition(error.path.hasPrefix("$"), "a path that does not start at the root: \(error.path)")
    }
    return 0
}
