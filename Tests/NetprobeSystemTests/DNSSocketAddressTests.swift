@testable import NetprobeNetwork
import Testing

/// Which server texts the link resolver's socket accepts: a zone only on a link-local address,
/// naming an interface that exists (and the one the socket is bound to, when it is bound).
@Suite struct DNSSocketAddressTests {
    @Test func plainAddressesHaveNoScope() {
        #expect(DNSSocket.address("198.51.100.1", interface: nil)?.scope == 0)
        #expect(DNSSocket.address("2001:db8::53", interface: "lo")?.bytes.count == 16)
    }

    /// `lo` exists in every namespace, with index 1.
    @Test func aZoneNamesAnInterfaceThatExists() {
        #expect(DNSSocket.address("fe80::53%lo", interface: nil)?.scope == 1)
        #expect(DNSSocket.address("fe80::53%1", interface: nil)?.scope == 1)
        #expect(DNSSocket.address("fe80::53%lo", interface: "lo")?.scope == 1)
        #expect(DNSSocket.address("fe80::53%nosuchif0", interface: nil) == nil)
    }

    @Test func aZoneElsewhereIsRefused() {
        #expect(DNSSocket.address("2001:db8::53%lo", interface: nil) == nil)
        #expect(DNSSocket.address("198.51.100.1%lo", interface: nil) == nil)
        #expect(DNSSocket.address("fe80::53%lo\u{7F}", interface: nil) == nil)
        #expect(DNSSocket.address("fe80::53%", interface: nil) == nil)
        #expect(DNSSocket.address("fe80::53%lo", interface: "nosuchif0") == nil)
    }
}

/// Every question of one exchange has its own ID.
@Suite struct DNSQueryIDTests {
    @Test func noTwoQuestionsShareAnID() {
        for count in [0, 1, 2, 12, 4096] {
            let ids = DNSExchange.uniqueIDs(count)
            #expect(ids.count == count && Set(ids).count == count)
        }
        #expect(Set(DNSExchange.uniqueIDs(1 << 16)).count == 1 << 16)
    }
}
