@testable import NetprobeWire
@testable import NetprobeVerdict
@testable import NetprobeOutput
@testable import NetprobeReport

// What a portal page is scanned for: WISPr XML, meta refresh, script redirects, and the
// entity decoder under them.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzMarkup(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    _ = WISPrParser.parse(bytes)
    _ = MetaRefresh.target(in: bytes)
    _ = ScriptRedirect.target(in: bytes)
    _ = MarkupScanner.decodeReferences(bytes[...])
    if let refresh = MarkupScanner.decodeReferences(bytes[...]) { _ = MetaRefresh.url(fromRefresh: refresh) }
    return 0
}
