import NetprobeWire
import NetprobeVerdict
import NetprobeOutput
import NetprobeReport
import NetprobeSystem
import NetprobeNetwork
import NetprobeCheck
import NetprobeWatch
import Testing

/// The DNS reader against well-formed and hostile answers: every one ends in addresses of the
/// asked type or a clear error, never a crash or a loop.
@Suite struct DNSMessageTests {
    static func name(_ text: String) -> [UInt8] {
        text.split(separator: ".").flatMap { [UInt8($0.utf8.count)] + Array($0.utf8) } + [0]
    }

    static func message(id: UInt16 = 0x1234, flags: UInt16 = 0x8180, question: String = "captive.apple.com", type: UInt16 = 1,
                        answers: [[UInt8]] = [], answerCount: Int? = nil, extra: [UInt8] = []) -> [UInt8] {
        func u16(_ value: Int) -> [UInt8] { [UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)] }
        var bytes = u16(Int(id)) + u16(Int(flags)) + u16(1) + u16(answerCount ?? answers.count) + u16(0) + u16(0)
        bytes += name(question) + u16(Int(type)) + u16(1)
        return bytes + answers.joined() + extra
    }

    static func record(owner: [UInt8] = [0xC0, 0x0C], type: UInt16 = 1, data: [UInt8]) -> [UInt8] {
        owner + [UInt8(type >> 8), UInt8(type & 0xFF), 0, 1, 0, 0, 0, 60, UInt8(data.count >> 8), UInt8(data.count & 0xFF)] + data
    }

    @Test func aQueryIsRecursiveWithOneQuestion() throws {
        let query = try DNSMessage.query(id: 0xBEEF, name: "www.google.com.", type: .aaaa)
        #expect(query == [0xBE, 0xEF, 0x01, 0x00, 0, 1, 0, 0, 0, 0, 0, 0] + Self.name("www.google.com") + [0, 28, 0, 1])
        #expect(throws: DNSError.badName) { try DNSMessage.query(id: 1, name: "a..b", type: .a) }
        #expect(throws: DNSError.badName) { try DNSMessage.query(id: 1, name: String(repeating: "x", count: 64) + ".test", type: .a) }
        #expect(throws: DNSError.badName) { try DNSMessage.query(id: 1, name: "", type: .a) }
    }

    @Test func answersOfTheAskedTypeAreRead() throws {
        let reply = Self.message(answers: [Self.record(data: [203, 0, 113, 10]), Self.record(type: 28, data: [UInt8](repeating: 0, count: 16)),
                                           Self.record(data: [203, 0, 113, 11])])
        let answer = try DNSMessage.answer(reply, id: 0x1234, name: "CAPTIVE.apple.com", type: .a)
        #expect(answer == DNSAnswer(truncated: false, addresses: ["203.0.113.10", "203.0.113.11"]))
    }

    @Test func aliasesAreFollowedWithinTheAnswer() throws {
        let alias = Self.name("x.apple.com")
        let reply = Self.message(answers: [Self.record(type: 5, data: alias), Self.record(owner: [0xC0, 0x2F], data: [198, 51, 100, 7])])
        #expect(try DNSMessage.answer(reply, id: 0x1234, name: "captive.apple.com", type: .a).addresses == ["198.51.100.7"])
    }

    @Test func ipv6AddressesAreWrittenAsInetNtopWritesThem() throws {
        let bytes: [UInt8] = [0x20, 0x01, 0x0d, 0xb8, 0, 2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x15]
        let reply = Self.message(question: "www.google.com", type: 28, answers: [Self.record(type: 28, data: bytes)])
        #expect(try DNSMessage.answer(reply, id: 0x1234, name: "www.google.com", type: .aaaa).addresses == ["2001:db8:2::15"])
    }

    @Test(arguments: [
        ([UInt8](repeating: 0, count: 16), "::"),
        ([0, 0x64, 0xff, 0x9b] + [UInt8](repeating: 0, count: 8) + [192, 0, 0, 170], "64:ff9b::c000:aa"),
        ([0x20, 0x01, 0x0d, 0xb8, 0, 0, 0, 1, 0, 0, 0, 0, 0, 1, 0, 0], "2001:db8:0:1::1:0"),
        ([0x20, 0x01, 0x0d, 0xb8, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 1], "2001:db8:1:0:1:0:1:1"),
        ([UInt8](repeating: 0, count: 15) + [1], "::1"),
        ([203, 0, 113, 7], "203.0.113.7"),
    ] as [([UInt8], String)])
    func addressText(_ bytes: [UInt8], _ text: String) {
        #expect(IPAddressFormat.text(bytes[...]) == text)
    }

    static let hostile: [(String, [UInt8], DNSError)] = [
        ("empty", [], .truncatedMessage),
        ("header only, cut", Array(message().prefix(7)), .truncatedMessage),
        ("another ID", message(id: 0x4321), .mismatch),
        ("a query, not a response", message(flags: 0x0100), .mismatch),
        ("another question", message(question: "other.test"), .mismatch),
        ("another type", message(type: 28), .mismatch),
        ("SERVFAIL", message(flags: 0x8182), .rcode(2)),
        ("NXDOMAIN", message(flags: 0x8183), .rcode(3)),
        ("a record cut short", Array(message(answers: [record(data: [1, 2, 3, 4])]).dropLast(2)), .truncatedMessage),
        ("a count past the end", message(answers: [record(data: [1, 2, 3, 4])], answerCount: 65535), .truncatedMessage),
        ("a pointer to itself", message(answers: [record(owner: [0xC0, 35], data: [1, 2, 3, 4])]), .badPointer),
        ("a pointer forward", message(answers: [record(owner: [0xC0, 0xFF], data: [1, 2, 3, 4])]), .badPointer),
        ("a pointer loop", message(answers: [record(owner: [0xC0, 47], data: [1, 2, 3, 4])], extra: [0xC0, 35]), .badPointer),
        ("an extended label type", message(answers: [record(owner: [0x40, 0x00], data: [1, 2, 3, 4])]), .truncatedMessage),
        ("a record length past the end", message(answers: [[0xC0, 0x0C, 0, 1, 0, 1, 0, 0, 0, 60, 0xFF, 0xFF]]), .truncatedMessage),
    ]

    @Test func hostileAnswersEndInAClearError() {
        for (label, bytes, expected) in Self.hostile {
            #expect(throws: expected, "\(label)") { try DNSMessage.answer(bytes, id: 0x1234, name: "captive.apple.com", type: .a) }
        }
    }

    @Test func aRecordOfTheWrongLengthIsSkipped() throws {
        let reply = Self.message(answers: [Self.record(data: [1, 2, 3]), Self.record(data: [198, 51, 100, 9])])
        #expect(try DNSMessage.answer(reply, id: 0x1234, name: "captive.apple.com", type: .a).addresses == ["198.51.100.9"])
    }

    @Test func theTruncationFlagIsReported() throws {
        #expect(try DNSMessage.answer(Self.message(flags: 0x8380), id: 0x1234, name: "captive.apple.com", type: .a).truncated)
    }
}

/// RFC 7050 / RFC 6052: the prefix a synthesized AAAA of ipv4only.arpa shows.
@Suite struct NAT64PrefixTests {
    static func bytes(_ text: String) -> [UInt8] {
        IPAddressText.address(text) ?? []
    }

    @Test(arguments: [
        ("64:ff9b::c000:aa", "64:ff9b::/96"),
        ("64:ff9b::c000:ab", "64:ff9b::/96"),
        ("2001:db8:64::c000:aa", "2001:db8:64::/96"),
        ("2001:db8:c000:aa::", "2001:db8::/32"),
        ("2001:db8:1c0:0:aa::", "2001:db8:100::/40"),
        ("2001:db8:122:c000:0:aa00::", "2001:db8:122::/48"),
        ("2001:db8:122:3c0:0:aa:0:0", "2001:db8:122:300::/56"),
        ("2001:db8:122:344:c0:0:aa00:0", "2001:db8:122:344::/64"),
    ] as [(String, String)])
    func prefixes(_ address: String, _ prefix: String) {
        #expect(NAT64Prefix.prefix(of: Self.bytes(address)) == prefix)
    }

    /// Prefixes RFC 6052 does not allow, or that no NAT64 can have, are never reported.
    @Test(arguments: [
        "::ffff:c000:aa",                 // IPv4-mapped ::ffff:0:0/96
        "::c000:aa",                      // all zero: IPv4-compatible ::/96
        "ff0e::c000:aa",                  // multicast /96
        "ff0e:0:c000:aa::",               // multicast /32
        "64:ff9b::100:0:c000:aa",         // /96 with a non-zero u octet (byte 8)
        "2001:db8:122:344:1c0:0:aa00:0",  // /64 with a non-zero u octet
        "2001:db8:c000:aa:ff00::",        // /32 with a non-zero u octet
        "fe80::c000:aa",                  // link-local /96: names no translator's prefix
        "fe80::192.0.0.171",              // the same, the other well-known address
        "febf:ffff:c000:aa::",            // link-local /32, the top of fe80::/10
        "fe80:0:0:0:0:c0:0:aa00",         // link-local /64
    ])
    func prefixesRFC6052DoesNotAllow(_ address: String) {
        #expect(NAT64Prefix.prefix(of: Self.bytes(address)) == nil)
    }

    @Test func addressesWithoutTheWellKnownOnesShowNone() {
        #expect(NAT64Prefix.prefix(of: Self.bytes("2001:db8:2::10")) == nil)
        #expect(NAT64Prefix.prefix(of: Self.bytes("64:ff9b::c000:ac")) == nil)
        #expect(NAT64Prefix.prefix(of: [192, 0, 0, 170]) == nil)
    }
}
