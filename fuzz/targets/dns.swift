@testable import NetprobeWire
@testable import NetprobeVerdict
@testable import NetprobeOutput
@testable import NetprobeReport

// A DNS answer as a hostile resolver would send it: the first two bytes pick the question's
// type and whether the ID matches; the rest is the message. Whatever comes, the reader ends in
// an answer or an error, never a crash or a long loop, an answer's addresses are the
// asked type's, and a NAT64 prefix read from one is one RFC 6052 allows.
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
                // A NAT64 prefix is only ever one RFC 6052 allows.
                if let bytes = parsed, let prefix = NAT64Prefix.prefix(of: bytes) {
                    let parts = prefix.split(separator: "/")
                    let length = Int(parts[1]) ?? 0
                    let network = IPAddressText.address(String(parts[0])) ?? []
                    precondition([32, 40, 48, 56, 64, 96].contains(length) && network.count == 16, "a prefix of no RFC 6052 length")
                    precondition(bytes[8] == 0 && network[0] != 0xFF && NAT64Prefix.allowed(network), "a prefix RFC 6052 forbids")
                    precondition(!(network[0] == 0xFE && network[1] & 0xC0 == 0x80), "a link-local prefix")
                }
            }
        }
    }
    return 0
}
