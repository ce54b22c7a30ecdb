@testable import NetprobeWire
@testable import NetprobeVerdict
@testable import NetprobeOutput
@testable import NetprobeReport

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
    // The body's first line as the address libcurl reported: the address parser too.
    let address = String(decoding: body.prefix(64).prefix { $0 != 0x0A }, as: UTF8.self)
    if let v4 = IPAddressText.ipv4(Substring(address)) {
        precondition(v4.count == 4 && address.utf8.allSatisfy { $0 == 0x2E || (0x30...0x39).contains($0) }, "not an IPv4 address")
    }
    if let v6 = IPAddressText.ipv6(Substring(address)) { precondition(v6.count == 16, "not 16 bytes") }
    for zone in [IPAddressText.Zone.plain, .urlEncoded] {
        if let bytes = IPAddressText.address(address, zone: zone, octets: .strict) {
            precondition(bytes.count == 4 || bytes.count == 16, "neither 4 nor 16 bytes")
        }
    }
    _ = AddressClass.of(address)
    _ = WISPrParser.parse(body)
    return 0
}
