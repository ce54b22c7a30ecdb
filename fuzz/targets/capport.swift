@testable import NetprobeWire
@testable import NetprobeVerdict
@testable import NetprobeOutput
@testable import NetprobeReport

// The Captive Portal API answer (RFC 8908), as a hostile access point would send it.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzCapportParser(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    if case .success(let answer) = CapportParser.parse(bytes) {
        precondition(answer.userPortalURL.map { $0.lowercased().hasPrefix("https://") } ?? true, "a non-https portal URL")
        precondition((answer.secondsRemaining ?? 0) >= 0 && (answer.bytesRemaining ?? 0) >= 0, "a negative count")
    }
    return 0
}
