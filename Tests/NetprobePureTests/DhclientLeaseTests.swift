import Foundation
@testable import NetprobeWire
@testable import NetprobeLinkState
import Testing

/// dhclient.leases(5) read as dhclient writes it.
@Suite struct DhclientLeaseTests {
    @Test func quotedStringsEscapesAndComments() {
        let text = #"""
            # The format of this file is documented in the dhclient.leases(5) manual page.
            default-duid "\000\001\000\001}{";
            lease {
              interface "eth0";
              fixed-address 198.51.100.2;
              option domain-name "a;b}c\"d";  # a comment with } and ;
              option default-url "https://portal.example/\173x\175";
              option domain-name-servers 198.51.100.1,198.51.100.2;
              expire epoch 1800000000; # Fri Jan 15 08:00:00 2027
            }
            """#
        #expect(DhclientLease.blocks(in: text) == [DhclientLease(
            interface: "eth0", address: "198.51.100.2", captivePortal: "https://portal.example/{x}",
            nameServers: ["198.51.100.1", "198.51.100.2"], expiry: .at(Date(timeIntervalSince1970: 1_800_000_000)))])
    }

    @Test func otherBlocksAndNestedOnesAreSkippedWhole() {
        let text = """
            lease6 { interface "eth0"; ia-na 1a:2b { iaaddr 2001:db8::2 { max-life 100; } } }
            lease { interface "eth0"; fixed-address 198.51.100.2; expire never; }
            """
        #expect(DhclientLease.blocks(in: text).map(\.address) == ["198.51.100.2"])
    }

    @Test(arguments: ["lease {", "lease { interface \"eth0", "lease { interface \"eth0\"; lease {", "}}}{{{ lease"])
    func unfinishedTextGivesNoBlock(_ text: String) {
        #expect(DhclientLease.blocks(in: text).isEmpty)
    }

    @Test func noExpireIsNotTrusted() {
        let lease = DhclientLease.blocks(in: "lease { interface \"eth0\"; }")[0]
        #expect(lease.expiry == .unknown && lease.expired(now: Date(timeIntervalSince1970: 0)))
        #expect(!DhclientLease.blocks(in: "lease { expire never; }")[0].expired(now: .distantFuture))
    }
}

/// systemd-style state files: lines end at "\n" only.
@Suite struct KeyValueStateTests {
    @Test func aLineBreakOtherThanNewlineIsPartOfTheValue() {
        let text = "ADDRESS=198.51.100.2\nDNS=fe80::53%\u{85}x 198.51.100.1\u{2028}DNS=203.0.113.9\r\nLIFETIME=60\r\n"
        #expect(KeyValueState.value("DNS", in: text) == "fe80::53%\u{85}x 198.51.100.1\u{2028}DNS=203.0.113.9")
        #expect(KeyValueState.value("LIFETIME", in: text) == "60")
    }
}
