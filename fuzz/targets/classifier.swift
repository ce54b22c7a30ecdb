@testable import NetprobeCore

// A probe answer built from the input: two bytes of status, header lines up to an empty
// line, then the body; one byte picks the expectation. Classify must give one outcome and
// agree with itself about success.
/// Parsed once: the classifier, not the config parser, is what this target is about.
let probes = DefaultProbes.config().probes

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzClassifier(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    var input = FuzzInput(data, size)
    let choice = input.byte()
    let status = (Int(input.byte()) << 8 | Int(input.byte())) % 1000
    var headers: [(name: String, value: String)] = []
    while !input.bytes.isEmpty, headers.count < 32 {
        let line = input.field(until: 0x0A)
        if line.isEmpty { break }
        let text = String(decoding: line, as: UTF8.self)
        let parts = text.split(separator: ":", maxSplits: 1)
        headers.append((name: String(parts.first ?? "").lowercased(), value: parts.count > 1 ? String(parts[1]) : ""))
    }
    let body = input.rest
    var spec = probes[Int(choice) % probes.count]
    if choice & 0x80 != 0 { spec.expect.successHeader = HeaderRule(name: "x-networkmanager-status", value: "online") }
    let observation = ProbeObservation(name: spec.name, url: spec.url, status: choice & 0x40 != 0 ? nil : status,
                                       headers: headers, body: body, bodyTruncated: choice & 0x20 != 0,
                                       transportError: choice & 0x10 != 0 ? TransportError(kind: .timeout, code: 28, message: "t") : nil)
    let evidence = Classifier.classify(observation, for: spec)
    if evidence.outcome == .success {
        precondition(observation.transportError == nil && spec.expect.statuses.contains(status), "success without the expected status")
    }
    _ = Classifier.dnsHijack(evidence)
    _ = WISPrParser.parse(body)
    return 0
}
