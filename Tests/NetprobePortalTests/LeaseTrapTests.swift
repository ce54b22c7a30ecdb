import Foundation
@testable import NetprobeWire
@testable import NetprobeVerdict
@testable import NetprobeSystem
import Testing

/// Leases that do not belong to the network the interface is on now, and lease files written
/// to mislead a reader: each is passed over, or read exactly.
@Suite struct LeaseTrapTests {
    typealias Tree = LeaseReaderTests.Tree
    static let eth0 = LeaseReaderTests.eth0  // eth0 holds 198.51.100.2
    static let now = Date(timeIntervalSince1970: 1_800_000_000)

    static func resolvers(_ tree: Tree) -> LinkResolvers? {
        tree.discovery.resolvers(path: eth0, through: ["eth0"])
    }

    /// NetworkManager's device state naming an address eth0 does not hold (a device state of
    /// another network namespace, or of before a restart) is passed over.
    @Test func aNetworkManagerStateOfAnotherAddress() throws {
        let tree = try Tree()
        try tree.write("nmdevices/2", NetworkManagerStateTests.deviceState(address: "203.0.113.77", expiry: 1_800_003_600))
        #expect(Self.resolvers(tree) == nil)
        try tree.write("nmdevices/2", NetworkManagerStateTests.deviceState(address: "198.51.100.2", expiry: 1_800_003_600))
        #expect(Self.resolvers(tree) == LinkResolvers(servers: ["198.51.100.1"], source: "networkmanager", interface: "eth0"))
    }

    @Test func anExpiredNetworkManagerLeaseIsPassedOver() throws {
        let tree = try Tree()
        try tree.write("nmdevices/2", NetworkManagerStateTests.deviceState(address: "198.51.100.2", expiry: 1_799_999_999))
        #expect(Self.resolvers(tree) == nil)
    }

    /// Two leases of this network (the same address): the one written last.
    @Test func theNewestAmongEquals() throws {
        let tree = try Tree()
        try tree.write("dhcp/dhclient.eth0.leases",
                       "lease { interface \"eth0\"; fixed-address 198.51.100.2; option domain-name-servers 198.51.100.7; expire never; }\n",
                       modified: Self.now.addingTimeInterval(-600))
        try tree.write("dhcp/dhclient.eth1.leases",
                       "lease { interface \"eth0\"; fixed-address 198.51.100.2; option domain-name-servers 198.51.100.8; expire never; }\n",
                       modified: Self.now.addingTimeInterval(-60))
        #expect(Self.resolvers(tree)?.servers == ["198.51.100.8"])
    }

    /// dhcpcd's lease names 0.0.0.0 first in option 6 (a server's misconfiguration, or a
    /// hostile one): that entry is skipped, the resolvers after it are kept, in order.
    @Test func aDhcpcdLeaseWhoseResolversStartWithTheUnspecifiedAddress() throws {
        let tree = try Tree()
        let servers: [UInt8] = [0, 0, 0, 0, 198, 51, 100, 1, 0, 0, 0, 0, 198, 51, 100, 9]
        try tree.write("dhcpcd/eth0.lease", LeaseReaderTests.dhcpMessage([(53, [5]), (6, servers), (51, [0, 0, 0x0E, 0x10])]),
                       modified: Self.now.addingTimeInterval(-60))
        #expect(Self.resolvers(tree) == LinkResolvers(servers: ["198.51.100.1", "198.51.100.9"], source: "dhcpcd", interface: "eth0"))
    }

    /// A `}` inside a quoted option is text, not the end of the block.
    @Test func aBraceInsideAQuotedStringDoesNotEndTheBlock() throws {
        let tree = try Tree()
        try tree.write("dhcp/dhclient.eth0.leases", """
            lease {
              interface "eth0";
              fixed-address 198.51.100.2;
              option domain-name "evil}; option domain-name-servers 203.0.113.66;";
              option domain-name-servers 198.51.100.1;
              expire never;
            }
            """)
        #expect(Self.resolvers(tree)?.servers == ["198.51.100.1"])
    }

    /// A file over the limit is refused whole and said so, never read cut short.
    @Test func aFileOverTheLimitIsRefusedWithAReason() throws {
        let tree = try Tree()
        let good = "lease { interface \"eth0\"; fixed-address 198.51.100.2; option domain-name-servers 198.51.100.1; expire never; }\n"
        let padding = String(repeating: "# padding\n", count: LeaseReader.limit / 10 + 1)
        try tree.write("dhcp/dhclient.eth0.leases", good + padding + "lease { interface \"eth0\"; fixed-address 198.51.10")
        let reading = tree.discovery.read(path: Self.eth0, through: ["eth0"])
        #expect(reading.leases.isEmpty)
        #expect(reading.problems == ["\(tree.root)/dhcp/dhclient.eth0.leases: larger than \(LeaseReader.limit) bytes"])
    }

    /// A block the file ends inside (a write cut short) is not a lease; the one before it is.
    @Test func aBlockCutShortIsNotALease() throws {
        let tree = try Tree()
        try tree.write("dhcp/dhclient.eth0.leases", """
            lease { interface "eth0"; fixed-address 198.51.100.2; option domain-name-servers 198.51.100.1; expire never; }
            lease { interface "eth0"; fixed-address 198.51.100.2; option domain-name-servers 203.0.113.
            """)
        #expect(Self.resolvers(tree)?.servers == ["198.51.100.1"])
    }

    @Test(arguments: [
        ("expire epoch 1800003600; # Fri Jan 15 08:00:00 2027", true),
        ("expire epoch 1799996400;", false),
        ("expire never;", true),
        ("", false),
        ("expire 5 2027/13/40 99:00:00;", false),
        ("expire 4 2099/12/31 00:00:00;", true),
    ])
    func expiry(_ row: (String, Bool)) throws {
        let tree = try Tree()
        try tree.write("dhcp/dhclient.eth0.leases",
                       "lease { interface \"eth0\"; fixed-address 198.51.100.2; option domain-name-servers 198.51.100.1; \(row.0)\n}\n")
        #expect((Self.resolvers(tree) != nil) == row.1)
    }

    /// Only unicast addresses of other hosts are the link's resolvers.
    @Test func onlyUnicastResolvers() throws {
        let tree = try Tree()
        try tree.write("netif/links/2", "DNS=0.0.0.0 127.0.0.1 224.0.0.251 :: ::1 ff02::fb ::ffff:127.0.0.1 198.51.100.1\n")
        #expect(Self.resolvers(tree)?.servers == ["198.51.100.1"])
        try tree.write("netif/links/2", "DNS=0.0.0.0 127.0.0.1\n")
        #expect(Self.resolvers(tree) == nil)
    }

    /// A zone is the interface's own name on a link-local address, or the resolver is not used.
    @Test func zonesAreTheInterfacesName() throws {
        let tree = try Tree()
        try tree.write("nmdevices/2", NetworkManagerStateTests.deviceState(address: "198.51.100.2", expiry: 1_800_003_600)
                       + "\n[dhcp6]\ndhcp6.dhcp6_name_servers=fe80::53%eth0 fe80::54%wlan0 fe80::55%e\u{7F}h0 fe80::56%eth\u{85} 2001:db8::53%eth0\n")
        #expect(Self.resolvers(tree)?.servers == ["198.51.100.1", "fe80::53%eth0"])
    }

    /// With no fixed time the reader judges leases at the time of each read.
    @Test func theTimeIsTakenAtEachRead() throws {
        let tree = try Tree()
        let soon = Int(Date().timeIntervalSince1970) + 3600, past = Int(Date().timeIntervalSince1970) - 1
        var reader = tree.discovery
        reader.now = nil
        try tree.write("dhcp/dhclient.eth0.leases",
                       "lease { interface \"eth0\"; fixed-address 198.51.100.2; option domain-name-servers 198.51.100.1; expire epoch \(soon); }\n")
        #expect(reader.resolvers(path: Self.eth0, through: ["eth0"]) != nil)
        try tree.write("dhcp/dhclient.eth0.leases",
                       "lease { interface \"eth0\"; fixed-address 198.51.100.2; option domain-name-servers 198.51.100.1; expire epoch \(past); }\n")
        #expect(reader.resolvers(path: Self.eth0, through: ["eth0"]) == nil)
    }
}
