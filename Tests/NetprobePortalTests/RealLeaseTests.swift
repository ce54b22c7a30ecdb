import Foundation
@testable import NetprobeWire
@testable import NetprobeLinkState
@testable import NetprobeVerdict
@testable import NetprobeSystem
import Testing

/// Leases the real programs wrote in the lab (lab/scenarios/dhcp-*: ISC dhclient 4.4.3-P1 and
/// dhcpcd 9.4.1 configured by dnsmasq 2.90 offering options 6 and 114; the same files are the
/// fuzz seeds fuzz/corpus/lease/dhclient, dhcpcd and dhcpcd-no-114), read as netprobe reads them.
@Suite struct RealLeaseTests {
    /// 2026-11-28 03:30 UTC: within the leases' hour.
    static let now = Date(timeIntervalSince1970: 1_795_836_600)

    static func reader(_ tree: LeaseReaderTests.Tree) -> LeaseReader {
        LeaseReader(networkdLinks: "\(tree.root)/netif/links", dhcpcdDirectories: ["\(tree.root)/dhcpcd"],
                    dhclientDirectories: ["\(tree.root)/dhcp"], networkManagerDirectory: "\(tree.root)/nm", now: now)
    }

    static func eth0(_ address: String) -> PathSnapshot {
        PathSnapshot(
            interfaces: [NetworkInterface(name: "eth0", index: 2, type: .ethernet, up: true, carrier: true, operstate: "up", mtu: 1500,
                                          addresses: [InterfaceAddress(family: .ipv4, address: address, prefixLength: 24, scope: .global)])],
            defaultRoutes: [DefaultRoute(family: .ipv4, gateway: "198.51.100.1", interface: "eth0", interfaceIndex: 2, metric: 0, table: 254)],
            dns: DNSConfiguration(servers: ["203.0.113.53"], localStub: false, source: "/etc/resolv.conf"))
    }

    /// ISC dhclient's /var/lib/dhcp/dhclient.eth0.leases (its -lf), as written.
    static let dhclient = """
        lease {
          interface "eth0";
          fixed-address 198.51.100.152;
          option subnet-mask 255.255.255.0;
          option routers 198.51.100.1;
          option dhcp-lease-time 3600;
          option default-url "https://capport.portal.test/captive";
          option dhcp-message-type 5;
          option domain-name-servers 198.51.100.1;
          option dhcp-server-identifier 198.51.100.1;
          option dhcp-renewal-time 1800;
          option broadcast-address 198.51.100.255;
          option dhcp-rebinding-time 3150;
          renew 6 2026/11/28 03:43:48;
          rebind 6 2026/11/28 04:13:00;
          expire 6 2026/11/28 04:20:30;
        }

        """

    static func bytes(_ hex: String) -> [UInt8] {
        stride(from: 0, to: hex.count, by: 2).map { offset in
            let start = hex.index(hex.startIndex, offsetBy: offset)
            return UInt8(hex[start..<hex.index(start, offsetBy: 2)], radix: 16) ?? 0
        }
    }

    /// dhcpcd's /var/lib/dhcpcd/eth0.lease: the server's DHCPACK as received.
    static let dhcpcd = bytes(
        "020106009526641e0003000000000000c6336486c6336401000000005e1a5f83daec0000000000000000000000000000" +
        "000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000" +
        "000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000" +
        "000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000" +
        "000000000000000000000000000000000000000000000000000000000000000000000000000000000000000063825363" +
        "3501053604c6336401330400000e103a04000007083b0400000c4e0104ffffff001c04c63364ff722368747470733a2f" +
        "2f636170706f72742e706f7274616c2e746573742f636170746976650604c63364010304c6336401ff")

    /// The same from a server that left option 114 out of the lease.
    static let dhcpcdNo114 = bytes(
        "020106002ff413880003000000000000c633648ac6336401000000006a611ae4521b0000000000000000000000000000" +
        "000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000" +
        "000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000" +
        "000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000" +
        "000000000000000000000000000000000000000000000000000000000000000000000000000000000000000063825363" +
        "3501053604c6336401330400000e103a04000007083b0400000c4e0104ffffff001c04c63364ff0604c63364010304c6" +
        "336401ff0000000000000000")

    /// dhcpcd's /var/lib/dhcpcd/eth0.lease6: the DHCPv6 REPLY from dnsmasq (--enable-ra, a
    /// stateful range, options 23 and 103), as received.
    static let dhcpcd6 = bytes(
        "07a931170001000e00010001329d075752c5d374209e0002000e00010001329d07572eac6365df4600030028d374209e" +
        "0000070800000c4e0005001820010db800010000000000000000016d00000e1000000e10000d00090000737563636573" +
        "730067002368747470733a2f2f636170706f72742e706f7274616c2e746573742f636170746976650017001020010db8" +
        "000100000000000000000001")

    @Test func dhcpcdsDHCPv6Lease() throws {
        let options = try #require(DHCPv6Message.options(Self.dhcpcd6))
        #expect(Self.dhcpcd6[0] == 7, "a REPLY")
        #expect(DHCPv6Message.leasedAddresses(options) == [.init(address: "2001:db8:1::16d", validLifetime: 3600)])
        #expect(DHCPv6Message.nameServers(options) == ["2001:db8:1::1"])
        #expect(DHCPv6Message.captivePortal(options) == "https://capport.portal.test/captive")
        let tree = try LeaseReaderTests.Tree()
        try tree.write("dhcpcd/eth0.lease6", Self.dhcpcd6, modified: Self.now.addingTimeInterval(-60))
        var eth0 = Self.eth0("198.51.100.134")
        eth0.interfaces[0].addresses.append(InterfaceAddress(family: .ipv6, address: "2001:db8:1::16d", prefixLength: 128, scope: .global))
        #expect(Self.reader(tree).captivePortal(path: eth0, through: ["eth0"])
            == .init(uri: "https://capport.portal.test/captive", source: "dhcpcd", interface: "eth0"))
    }

    @Test func dhclientsLease() throws {
        let tree = try LeaseReaderTests.Tree()
        try tree.write("dhcp/dhclient.eth0.leases", Self.dhclient, modified: Self.now.addingTimeInterval(-60))
        let block = try #require(DhclientLease.blocks(in: Self.dhclient).last)
        #expect(block.interface == "eth0" && block.address == "198.51.100.152" && !block.expired(now: Self.now))
        #expect(block.server == "198.51.100.1")
        #expect(block.expired(now: Self.now.addingTimeInterval(3600)))
        let reader = Self.reader(tree)
        #expect(reader.captivePortal(path: Self.eth0("198.51.100.152"), through: ["eth0"])
            == .init(uri: "https://capport.portal.test/captive", source: "dhclient", interface: "eth0"))
        #expect(reader.resolvers(path: Self.eth0("198.51.100.152"), through: ["eth0"])
            == LinkResolvers(servers: ["198.51.100.1"], source: "dhclient", interface: "eth0"))
        // Another network's address on eth0: the lease is not this network's.
        #expect(reader.captivePortal(path: Self.eth0("198.51.100.7"), through: ["eth0"]) == nil)
    }

    @Test func dhcpcdsLease() throws {
        let options = try #require(DHCPMessage.options(Self.dhcpcd))
        #expect(DHCPMessage.yourAddress(Self.dhcpcd) == "198.51.100.134")
        #expect(DHCPMessage.leaseTime(options) == 3600 && DHCPMessage.nameServers(options) == ["198.51.100.1"])
        #expect(DHCPMessage.serverIdentifier(options) == "198.51.100.1")
        let tree = try LeaseReaderTests.Tree()
        try tree.write("dhcpcd/eth0.lease", Self.dhcpcd, modified: Self.now.addingTimeInterval(-60))
        let reader = Self.reader(tree)
        #expect(reader.captivePortal(path: Self.eth0("198.51.100.134"), through: ["eth0"])
            == .init(uri: "https://capport.portal.test/captive", source: "dhcpcd", interface: "eth0"))
        // Written more than its hour ago: expired.
        try tree.write("dhcpcd/eth0.lease", Self.dhcpcd, modified: Self.now.addingTimeInterval(-3700))
        #expect(reader.captivePortal(path: Self.eth0("198.51.100.134"), through: ["eth0"]) == nil)
    }

    /// Without option 114 the lease still names the link's resolvers, and no API: a check
    /// behind a portal then asks the network (DHCPINFORM).
    @Test func dhcpcdsLeaseWithoutOption114() throws {
        let tree = try LeaseReaderTests.Tree()
        try tree.write("dhcpcd/eth0.lease", Self.dhcpcdNo114, modified: Self.now.addingTimeInterval(-60))
        let reader = Self.reader(tree)
        #expect(reader.captivePortal(path: Self.eth0("198.51.100.138"), through: ["eth0"]) == nil)
        #expect(reader.resolvers(path: Self.eth0("198.51.100.138"), through: ["eth0"])?.servers == ["198.51.100.1"])
    }
}
