@testable import NetprobeWire
@testable import NetprobeVerdict
@testable import NetprobeOutput
@testable import NetprobeReport

// The reader's selective mode (JSONReader.parse(_:limits:selecting:)) against its full mode on
// arbitrary bytes, the first byte picking the selection: the selective mode by itself must
// accept exactly what the full mode accepts and build what the selection keeps of its value,
// positions included; the public entry must fail with the full mode's very failure.
private let selections: [JSONSelection] = [
    WatchLogRecord.selection, .whole, [:], ["a": .whole, "b": ["c": .whole, "\u{E9}": ["d": .whole]]],
]

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzJSONSelect(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    var input = FuzzInput(data, size)
    let selection = selections[Int(input.byte()) % selections.count]
    let bytes = input.rest
    let limits = JSONReader.Limits(maxBytes: 1 << 20, maxDepth: 32)
    // An exact-size copy: AddressSanitizer then catches a read one byte past the text.
    let exact = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: max(bytes.count, 1))
    defer { exact.deallocate() }
    _ = exact.initialize(from: bytes)
    let text = UnsafeBufferPointer(rebasing: exact[0..<bytes.count])
    let full = Result { () throws(JSONReader.Failure) in try JSONReader.parse(bytes, limits: limits) }
    var scanner = JSONReader(bytes: text, limits: limits, nodes: selection.nodes)
    let scanned = try? scanner.document()
    switch full {
    case .success(let value):
        let kept = selection.filter(value)
        guard let scanned else { preconditionFailure("the selective reader refused what the full reader read") }
        precondition(scanned == kept && FuzzJSON.sameContent(scanned, kept), "the selective reader built another value")
    case .failure:
        precondition(scanned == nil, "the selective reader accepted what the full reader refused")
    }
    let selective = Result { () throws(JSONReader.Failure) in try JSONReader.parse(text, limits: limits, selecting: selection) }
    if case .failure(let expected) = full, case .failure(let failure) = selective {
        precondition(failure == expected, "another failure than the full reader's: \(failure) against \(expected)")
    }
    return 0
}
