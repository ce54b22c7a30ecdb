@testable import NetprobeWire
@testable import NetprobeVerdict
@testable import NetprobeOutput
@testable import NetprobeReport
@testable import NetprobeSystem
@testable import NetprobeNetwork
@testable import NetprobeCheck
@testable import NetprobeWatch
import Testing

@Suite struct AddressClassTests {
    static let table: [(String, AddressClass?)] = [
        // IPv4
        ("10.0.0.1", .privateUse), ("10.255.255.255", .privateUse),
        ("172.16.0.1", .privateUse), ("172.31.255.254", .privateUse), ("172.15.0.1", .global), ("172.32.0.1", .global),
        ("192.168.1.1", .privateUse), ("192.169.0.1", .global),
        ("127.0.0.1", .loopback), ("127.255.0.9", .loopback),
        ("169.254.10.20", .linkLocal),
        ("100.64.0.1", .cgnat), ("100.127.255.255", .cgnat), ("100.63.255.255", .global), ("100.128.0.0", .global),
        ("0.0.0.0", .unspecified), ("0.1.2.3", .unspecified),
        ("192.0.2.7", .documentation), ("198.51.100.2", .documentation), ("203.0.113.10", .documentation),
        ("198.51.101.1", .global), ("203.0.114.1", .global),
        ("224.0.0.1", .multicast), ("240.0.0.1", .reserved), ("255.255.255.255", .reserved),
        ("8.8.8.8", .global), ("17.253.144.10", .global),
        // IPv6
        ("::", .unspecified), ("::1", .loopback), ("0:0:0:0:0:0:0:1", .loopback),
        ("fe80::1", .linkLocal), ("fe80::1%eth0", .linkLocal), ("febf::1", .linkLocal), ("fec0::1", .global),
        ("fc00::1", .uniqueLocal), ("fd12:3456:789a::1", .uniqueLocal),
        ("ff02::1", .multicast),
        ("2001:db8::1", .documentation), ("2001:db8:2::10", .documentation), ("2001:0DB8:ffff::", .documentation),
        ("3fff::1", .documentation), ("3fff:fff::1", .documentation), ("3fff:1000::1", .global),
        ("2001:db9::1", .global), ("2a00:1450:4001:82a::200e", .global), ("[2606:4700::1111]", .global),
        ("::ffff:10.1.2.3", .privateUse), ("::ffff:198.51.100.1", .documentation), ("::ffff:8.8.8.8", .global),
        ("64:ff9b::8.8.8.8", .global),
        // Not addresses
        ("", nil), ("localhost", nil), ("10.0.0", nil), ("10.0.0.256", nil), ("10.0.0.1.2", nil), ("1.2.3.-4", nil),
        ("01234.1.1.1", nil), (" 10.0.0.1", nil), ("1:2:3:4:5:6:7:8:9", nil), ("1::2::3", nil), ("12345::", nil),
        ("g::1", nil), (":::", nil), ("1:2:3:4:5:6:7", nil), ("::ffff:1.2.3", nil), ("1.2.3.4::", nil),
    ]

    @Test(arguments: table)
    func classifies(_ text: String, _ expected: AddressClass?) {
        #expect(AddressClass.of(text) == expected)
    }

    /// The byte parser agrees with the old Character one on the table and on 40,000
    /// pseudo-random strings over the characters addresses are made of (a fixed seed).
    @Test func byteParserAgreesWithTheCharacterOne() {
        let alphabet = Array("0123456789abcdefABCDEFg.:.::%[]1 \u{0661}")
        var state: UInt64 = 0x9E3779B97F4A7C15
        func next() -> Int {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return Int(truncatingIfNeeded: state >> 33)
        }
        var inputs = Self.table.map(\.0) + ["256.1.1.1", "1.2.3.300", "001.002.003.004", "::1.2.3.4", "1::1.2.3.4",
                                            "a:b:c:d:e:f:1.2.3.4", "::ffff:256.1.1.1", "\u{0661}.2.3.4"]
        for _ in 0..<40_000 {
            inputs.append(String((0..<(next() % 24)).map { _ in alphabet[next() % alphabet.count] }))
        }
        var disagreements: [String] = []
        for text in inputs {
            let sub = Substring(text)
            if IPAddressText.ipv4(sub) != LegacyIPAddressText.ipv4(sub) || IPAddressText.ipv6(sub) != LegacyIPAddressText.ipv6(sub) {
                disagreements.append(text)
            }
        }
        #expect(disagreements.isEmpty, "differ on \(disagreements.prefix(10))")
    }

    @Test func interceptionClasses() {
        let intercepting = Set(AddressClass.allCases.filter(\.isInterception))
        #expect(intercepting == [.privateUse, .loopback, .linkLocal, .cgnat, .uniqueLocal, .unspecified])
    }

    /// The lab's "real" hosts live in documentation ranges: never hijack evidence.
    @Test(arguments: ["198.51.100.1", "203.0.113.15", "2001:db8:2::15", "192.0.2.1"])
    func labAddressesAreNotInterception(_ address: String) {
        #expect(AddressClass.of(address)?.isInterception == false)
    }
}
