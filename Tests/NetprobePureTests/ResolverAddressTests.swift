@testable import NetprobeWire
import Testing

/// Which recorded resolver addresses may be asked: unicast addresses of other hosts, zones
/// only on link-local addresses and only as interface names.
@Suite struct ResolverAddressTests {
    @Test(arguments: [
        ("198.51.100.1", true), ("2001:db8::53", true), ("fe80::53", true), ("fe80::53%eth0", true),
        ("fe80::53%wlp3s0.100", true), ("fe80::53%2", true),
        ("0.0.0.0", false), ("0.1.2.3", false), ("127.0.0.1", false), ("127.0.0.53", false), ("224.0.0.251", false),
        ("239.255.255.250", false), ("255.255.255.255", false), ("240.0.0.1", false),
        ("::", false), ("::1", false), ("ff02::fb", false), ("ff0e::1", false), ("::ffff:127.0.0.1", false),
        ("::ffff:198.51.100.1", false),
        ("2001:db8::53%eth0", false), ("fe80::53%", false), ("fe80::53%eth0\u{7F}", false), ("fe80::53%eth\u{85}", false),
        ("fe80::53%../../x", false), ("fe80::53%averyveryverylongname", false), ("fe80::53%eth 0", false),
        ("010.1.1.1", false), ("not an address", false), ("", false),
    ])
    func usable(_ row: (String, Bool)) {
        #expect(ResolverAddress.isUsable(row.0) == row.1)
    }

    @Test func filterKeepsOrderAndDropsRepeats() {
        #expect(ResolverAddress.filter(["0.0.0.0", "198.51.100.1", "127.0.0.1", "198.51.100.1", "2001:db8::53"])
                == ["198.51.100.1", "2001:db8::53"])
    }

    @Test func zoneIsKept() {
        #expect(ResolverAddress.parse("fe80::53%eth0")?.zone == "eth0")
        #expect(ResolverAddress.parse("fe80::53")?.zone == nil)
        #expect(ResolverAddress.parse("fe80::53%eth0")?.bytes.count == 16)
    }
}
