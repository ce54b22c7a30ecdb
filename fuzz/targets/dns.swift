@testable import NetprobeWire
@testable import NetprobeVerdict
@testable import NetprobeOutput
@testable import NetprobeReport

// A DNS answer as a hostile resolver would send it: the first two bytes pick the question's
// type and whether the ID matches; the rest is the message. Whatever comes, the reader ends in
// an answer or an error, never a crash or a long loop, and an answer's addresses are the
// asked type's.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzDNSAnswer(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    guard bytes.count >= 2 else { return 0 }
    let type: DNSRecordType = bytes[0] & 1 == 0 ? .a : .aaaa
    let message = Array(bytes[2...])
    let id = message.count >= 2 && bytes[1] & 1 == 0 ? UInt16(message[0]) << 8 | UInt16(message[1]) : 0x1234
    for name in ["captive.apple.com", "www.google.com", "ipv4only.arpa"] {
        if let answer = try? DNSMessage.answer(message, id: id, name: name, type: type) {
            for address in answer.addresses {
                let parsed = IPAddressText.address(address, octets: .strict)
                precondition(parsed?.count == (type == .a ? 4 : 16), "an address of another type: \(address)")
            }
        }
    }
    return 0
}
