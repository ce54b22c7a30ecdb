import Foundation
@testable import NetprobeWire
@testable import NetprobeVerdict
@testable import NetprobeOutput
@testable import NetprobeReport
@testable import NetprobeSystem
@testable import NetprobeNetwork
@testable import NetprobeCheck
@testable import NetprobeWatch
import Testing

/// The link's own resolvers, from the same state files as the Captive Portal URI.
@Suite struct LinkResolversTests {
    typealias Tree = LeaseReaderTests.Tree
    static let eth0 = LeaseReaderTests.eth0

    @Test func networkdRecordsThemAsDNS() throws {
        let tree = try Tree()
        try tree.write("netif/links/2", "ADMIN_STATE=configured\nDNS=198.51.100.1 2001:db8::53 not-an-address\n")
        #expect(tree.discovery.resolvers(path: Self.eth0, through: ["eth0"])
                == LinkResolvers(servers: ["198.51.100.1", "2001:db8::53"], source: "systemd-networkd", interface: "eth0"))
    }

    @Test func dhclientRecordsThemAsDomainNameServers() throws {
        let tree = try Tree()
        try tree.write("dhcp/dhclient.eth0.leases", """
            lease {
              interface "eth0";
              fixed-address 198.51.100.2;
              option domain-name-servers 198.51.100.1, 198.51.100.2;
              expire 4 2099/12/31 00:00:00;
            }
            lease {
              interface "eth0";
              option domain-name-servers 203.0.113.9;
              expire 4 2000/01/01 00:00:00;
            }
            """)
        #expect(tree.discovery.resolvers(path: Self.eth0, through: ["eth0"])?.servers == ["198.51.100.1", "198.51.100.2"])
        #expect(tree.discovery.resolvers(path: Self.eth0, through: ["eth0"])?.source == "dhclient")
    }

    @Test func dhcpcdKeepsOption6() throws {
        let tree = try Tree()
        let message = LeaseReaderTests.dhcpMessage([(53, [5]), (6, [198, 51, 100, 1, 198, 51, 100, 2]), (51, [0, 1, 0x51, 0x80])])
        try tree.write("dhcpcd/eth0.lease", message, modified: Date(timeIntervalSince1970: 1_800_000_000 - 60))
        #expect(tree.discovery.resolvers(path: Self.eth0, through: ["eth0"])
                == LinkResolvers(servers: ["198.51.100.1", "198.51.100.2"], source: "dhcpcd", interface: "eth0"))
        // A lease a day old has expired: its resolvers no longer count.
        let stale = try Tree()
        try stale.write("dhcpcd/eth0.lease", message, modified: Date(timeIntervalSince1970: 1_800_000_000 - 90_000))
        #expect(stale.discovery.resolvers(path: Self.eth0, through: ["eth0"]) == nil)
    }

    @Test func anOption6OfTheWrongLengthIsIgnored() throws {
        let tree = try Tree()
        try tree.write("dhcpcd/eth0.lease", LeaseReaderTests.dhcpMessage([(6, [198, 51, 100])]))
        #expect(tree.discovery.resolvers(path: Self.eth0, through: ["eth0"]) == nil)
    }

    @Test func onlyTheInterfacesTheProbesLeaveThroughCount() throws {
        let tree = try Tree()
        try tree.write("netif/links/2", "DNS=198.51.100.1\n")
        #expect(tree.discovery.resolvers(path: Self.eth0, through: []) == nil)
        #expect(tree.discovery.resolvers(path: Self.eth0, through: ["wlan0"]) == nil)
    }
}
