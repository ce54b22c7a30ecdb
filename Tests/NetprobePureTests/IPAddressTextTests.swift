@testable import NetprobeWire
@testable import NetprobeVerdict
@testable import NetprobeOutput
@testable import NetprobeReport
@testable import NetprobeSystem
@testable import NetprobeNetwork
@testable import NetprobeCheck
@testable import NetprobeWatch
import Testing

/// The one IP address parser, for each place text comes from: libcurl and NO_PROXY
/// (no zone, lenient octets), a URL's brackets (RFC 6874 `%25zone`, RFC 3986 octets) and
/// resolv.conf (`%zone`, inet_pton's octets).
@Suite struct IPAddressTextTests {
    typealias Zone = IPAddressText.Zone
    typealias Octets = IPAddressText.Octets

    static let loopback6: [UInt8] = Array(repeating: 0, count: 15) + [1]
    static let linkLocal: [UInt8] = [0xFE, 0x80] + Array(repeating: 0, count: 13) + [1]
    static let mapped: [UInt8] = Array(repeating: 0, count: 10) + [0xFF, 0xFF, 192, 0, 2, 1]

    static let table: [(String, Zone, Octets, [UInt8]?)] = [
        // IPv4
        ("192.0.2.1", .none, .lenient, [192, 0, 2, 1]),
        ("0.0.0.0", .none, .strict, [0, 0, 0, 0]),
        ("010.0.0.1", .none, .lenient, [10, 0, 0, 1]),
        ("010.0.0.1", .none, .strict, nil),
        ("10.00.0.1", .none, .strict, nil),
        ("255.255.255.255", .none, .strict, [255, 255, 255, 255]),
        ("256.1.1.1", .none, .lenient, nil),
        ("1.2.3", .none, .lenient, nil),
        ("1.2.3.4.5", .none, .lenient, nil),
        ("1..2.3", .none, .lenient, nil),
        ("1.2.3.4%eth0", .plain, .strict, nil),
        // IPv6
        ("::1", .none, .lenient, loopback6),
        ("0:0:0:0:0:0:0:1", .none, .strict, loopback6),
        ("::", .none, .lenient, Array(repeating: 0, count: 16)),
        ("::ffff:192.0.2.1", .none, .lenient, mapped),
        ("::ffff:192.000.2.1", .none, .lenient, mapped),
        ("::ffff:192.000.2.1", .urlEncoded, .strict, nil),
        ("1.2.3.4::", .none, .lenient, nil),
        ("1::2::3", .none, .lenient, nil),
        (":::", .none, .lenient, nil),
        ("1:2:3:4:5:6:7:8:9", .none, .lenient, nil),
        ("12345::", .none, .lenient, nil),
        // Zones: none, a bare `%zone`, a URL's `%25zone`.
        ("fe80::1", .plain, .strict, linkLocal),
        ("fe80::1%eth0", .none, .lenient, nil),
        ("fe80::1%eth0", .plain, .strict, linkLocal),
        ("fe80::1%2", .plain, .strict, linkLocal),
        ("fe80::1%", .plain, .strict, nil),
        ("fe80::1%eth0", .urlEncoded, .strict, nil),
        ("fe80::1%25eth0", .urlEncoded, .strict, linkLocal),
        ("fe80::1%25en%30", .urlEncoded, .strict, linkLocal),
        ("fe80::1%25", .urlEncoded, .strict, nil),
        ("fe80::1%25eth/0", .urlEncoded, .strict, nil),
        ("fe80::1%25eth%zz", .urlEncoded, .strict, nil),
        ("zz%25eth0", .urlEncoded, .strict, nil),
    ]

    @Test(arguments: table)
    func parses(_ text: String, _ zone: Zone, _ octets: Octets, _ expected: [UInt8]?) {
        #expect(IPAddressText.address(text, zone: zone, octets: octets) == expected)
    }
}
