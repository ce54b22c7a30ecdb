import Foundation
@testable import NetprobeWire
@testable import NetprobeVerdict
@testable import NetprobeSystem
import Testing

/// Every name dhcpcd gives its leases (per interface, per Wi-Fi network, 6.x's `dhcpcd-`
/// prefix, DHCPv6's `.lease6`), and of those the lease of the network the interface is on now.
@Suite struct DhcpcdLeaseNameTests {
    typealias Tree = LeaseReaderTests.Tree
    static let now = Date(timeIntervalSince1970: 1_800_000_000)

    @Test func everyNameDhcpcdGivesALeaseAndNoOther() {
        let files = ["wlan0.lease", "wlan0-Cafe Wifi.lease", "dhcpcd-wlan0.lease", "dhcpcd-wlan0-Hotel-5G.lease",
                     "wlan0.lease6", "wlan0-Home.lease6", "dhcpcd-wlan0-x.y.lease6",
                     "wlan01.lease", "wlan0-.lease", "eth0.lease", "wlan0.leases", "wlan0.lease~", "duid", "secret",
                     "dhcpcd-eth0-wlan0.lease", "wlan0"]
        let found = LeaseReader.dhcpcdFiles(files, interface: "wlan0")
        #expect(found.map(\.file) == ["wlan0.lease", "wlan0-Cafe Wifi.lease", "dhcpcd-wlan0.lease", "dhcpcd-wlan0-Hotel-5G.lease",
                                      "wlan0.lease6", "wlan0-Home.lease6", "dhcpcd-wlan0-x.y.lease6"])
        #expect(found.map(\.v6) == [false, false, false, false, true, true, true])
    }

    static let wlan0 = PathSnapshot(
        interfaces: [NetworkInterface(name: "wlan0", index: 3, type: .wifi, up: true, carrier: true, operstate: "up", mtu: 1500,
                                      addresses: [InterfaceAddress(family: .ipv4, address: "198.51.100.2", prefixLength: 24, scope: .global),
                                                  InterfaceAddress(family: .ipv6, address: "2001:db8:1::2", prefixLength: 64, scope: .global)])],
        defaultRoutes: [DefaultRoute(family: .ipv4, gateway: "198.51.100.1", interface: "wlan0", interfaceIndex: 3, metric: 600, table: 254)],
        dns: DNSConfiguration(servers: [], localStub: false, source: "/etc/resolv.conf"))

    static func dhcp(_ address: [UInt8], dns: [UInt8], uri: String) -> [UInt8] {
        LeaseReaderTests.dhcpMessage([(53, [5]), (6, dns), (114, Array(uri.utf8)), (51, [0, 0, 0x0E, 0x10])], yiaddr: address)
    }

    /// The hotel's network (the address wlan0 has now) and home's, written later: the hotel's.
    @Test func theLeaseOfTheNetworkTheInterfaceIsOnNow() throws {
        let tree = try Tree()
        try tree.write("dhcpcd/wlan0-Hotel Guest.lease", Self.dhcp([198, 51, 100, 2], dns: [198, 51, 100, 1],
                                                                    uri: "https://capport.hotel.example/api"),
                       modified: Self.now.addingTimeInterval(-600))
        try tree.write("dhcpcd/wlan0-Home.lease", Self.dhcp([203, 0, 113, 7], dns: [203, 0, 113, 1], uri: "https://home.example/api"),
                       modified: Self.now.addingTimeInterval(-60))
        let reader = tree.discovery
        #expect(reader.captivePortal(path: Self.wlan0, through: ["wlan0"])
            == .init(uri: "https://capport.hotel.example/api", source: "dhcpcd", interface: "wlan0"))
        #expect(reader.resolvers(path: Self.wlan0, through: ["wlan0"])
            == LinkResolvers(servers: ["198.51.100.1"], source: "dhcpcd", interface: "wlan0"))
    }

    /// dhcpcd 6.x's names, the same choice.
    @Test func sixXNamesToo() throws {
        let tree = try Tree()
        try tree.write("dhcpcd/dhcpcd-wlan0-Hotel.lease", Self.dhcp([198, 51, 100, 2], dns: [198, 51, 100, 1], uri: "https://a.example/"),
                       modified: Self.now.addingTimeInterval(-60))
        #expect(tree.discovery.captivePortal(path: Self.wlan0, through: ["wlan0"])?.uri == "https://a.example/")
    }

    /// A DHCPv6 reply as dhcpcd keeps it: REPLY, transaction ID, IA_NA with one IAADDR, then
    /// options 23 and 103.
    static func reply6(address: String, valid: UInt32, dns: String, uri: String) -> [UInt8] {
        func option(_ code: UInt16, _ data: [UInt8]) -> [UInt8] {
            [UInt8(code >> 8), UInt8(code & 0xFF), UInt8(data.count >> 8), UInt8(data.count & 0xFF)] + data
        }
        let lifetime = [UInt8(valid >> 24), UInt8(valid >> 16 & 0xFF), UInt8(valid >> 8 & 0xFF), UInt8(valid & 0xFF)]
        let iaaddr = option(5, (IPAddressText.address(address) ?? []) + lifetime + lifetime)
        return [7, 0x12, 0x34, 0x56] + option(3, [0, 0, 0, 1] + [UInt8](repeating: 0, count: 8) + iaaddr)
            + option(23, IPAddressText.address(dns) ?? []) + option(103, Array(uri.utf8))
    }

    @Test func aDHCPv6LeaseOfTheAddressHeldNow() throws {
        let tree = try Tree()
        try tree.write("dhcpcd/wlan0-Hotel.lease6", Self.reply6(address: "2001:db8:1::2", valid: 3600, dns: "2001:db8:1::53",
                                                                uri: "https://capport.hotel.example/v6"),
                       modified: Self.now.addingTimeInterval(-60))
        let reader = tree.discovery
        #expect(reader.captivePortal(path: Self.wlan0, through: ["wlan0"])?.uri == "https://capport.hotel.example/v6")
        #expect(reader.resolvers(path: Self.wlan0, through: ["wlan0"])?.servers == ["2001:db8:1::53"])
    }

    @Test(arguments: [
        ("2001:db8:1::2", UInt32(3600), -7200.0),  // expired: older than its valid lifetime
        ("2001:db8:9::2", UInt32(3600), -60.0),    // another network's address
    ])
    func aDHCPv6LeaseThatDoesNotCount(_ address: String, _ valid: UInt32, _ age: Double) throws {
        let tree = try Tree()
        try tree.write("dhcpcd/wlan0.lease6", Self.reply6(address: address, valid: valid, dns: "2001:db8:1::53", uri: "https://x.example/"),
                       modified: Self.now.addingTimeInterval(age))
        #expect(tree.discovery.captivePortal(path: Self.wlan0, through: ["wlan0"]) == nil)
    }
}
