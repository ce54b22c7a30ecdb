@testable import NetprobeWire
@testable import NetprobeLinkState
@testable import NetprobeVerdict
@testable import NetprobeSystem
@testable import NetprobeCheck
@testable import NetprobeWatch
@testable import NetprobeOutput
import Testing

/// Each path names its network from what the check already has: the gateway's link-layer
/// address in the neighbour table, the DHCP server of the lease the plan read, the domain of the
/// resolver configuration. A gate that says offline reads nothing.
@Suite struct NetworkFinderTests {
    static func entry(_ address: String, mac: String?, state: NeighbourState = .reachable) -> NeighbourTable.Entry {
        NeighbourTable.Entry(interfaceIndex: 2, address: IPAddressText.address(address) ?? [], state: state, linkLayer: mac)
    }

    static var homeSnapshot: PathSnapshot {
        var snapshot = Kit.dualStack
        snapshot.dns.searchDomains = ["Home.Example."]
        return snapshot
    }

    static func check(_ snapshot: PathSnapshot, _ entries: [NeighbourTable.Entry], server: String = "198.51.100.1",
                      allPaths: Bool = false, askLinkResolvers: Bool = true) throws -> (Report, Int) {
        let source = FaultFinderTests.Neighbours(snapshot, entries)
        let runner = ScriptedRunner { _, _ in Kit.ok(5) }
        let leases = try DHCPInformFallbackTests.Leases([("eth0", "198.51.100.2", server)])
        var options = Kit.options(allPaths: allPaths, families: [.ipv4])
        options.leases = leases.reader()
        options.askLinkResolvers = askLinkResolvers
        let report = try withExtendedLifetime(leases) { try Checker(source: source, makeRunner: { runner }).run(options) }
        return (report, source.reads)
    }

    @Test func theNetworkIsItsGatewayItsServerAndItsDomain() throws {
        let (report, reads) = try Self.check(Self.homeSnapshot, [Self.entry("198.51.100.1", mac: "02:00:5e:00:53:01")])
        #expect(reads == 1)
        let network = try #require(report.network)
        #expect(network == NetworkIdentity(gatewayMAC: "02:00:5e:00:53:01", dhcpServer: "198.51.100.1", domain: "home.example"))
        #expect(network.id == NetworkIdentity(gatewayMAC: "02:00:5e:00:53:01", dhcpServer: "198.51.100.1", domain: "home.example").id)
        #expect(report.paths.allSatisfy { $0.network == network })
        #expect(JSONFormatter.format(report).contains(#""network":{"dhcp_server":"198.51.100.1","domain":"home.example","gateway_mac":"02:00:5e:00:53:01","id":"\#(network.id!)","ssid":null}"#))
    }

    /// The same network checked twice gives the same id; another gateway or another DHCP server
    /// is another network, and watch reports it even though the verdict stayed online.
    @Test func anotherGatewayOrServerIsAnotherNetworkAndAChange() throws {
        let home = [Self.entry("198.51.100.1", mac: "02:00:5e:00:53:01")]
        let (first, _) = try Self.check(Self.homeSnapshot, home)
        let (again, _) = try Self.check(Self.homeSnapshot, home)
        #expect(first.network?.id != nil && first.network?.id == again.network?.id)
        #expect(WatchRecord.after(first, again, allPaths: false) == nil)
        let (office, _) = try Self.check(Self.homeSnapshot, [Self.entry("198.51.100.1", mac: "02:00:5e:00:53:99")])
        #expect(office.network?.id != first.network?.id)
        #expect(WatchRecord.after(first, office, allPaths: false)?.changed == ["network"])
        let (hotel, _) = try Self.check(Self.homeSnapshot, home, server: "198.51.100.67")
        #expect(hotel.network?.id != first.network?.id)
        #expect(WatchRecord.after(first, hotel, allPaths: false)?.environment["NETPROBE_NETWORK_ID"] == hotel.network?.id)
    }

    /// --no-link-resolvers changes what is asked, not which network this is.
    @Test func theIdDoesNotDependOnAskingTheLinksResolvers() throws {
        let home = [Self.entry("198.51.100.1", mac: "02:00:5e:00:53:01")]
        let (asked, _) = try Self.check(Self.homeSnapshot, home)
        let (unasked, _) = try Self.check(Self.homeSnapshot, home, askLinkResolvers: false)
        #expect(unasked.network?.dhcpServer == "198.51.100.1")
        #expect(unasked.network?.id == asked.network?.id)
    }

    /// An unresolved gateway gives no address; the other parts still name the network.
    @Test func aFailedNeighbourHasNoAddress() throws {
        let (report, _) = try Self.check(Self.homeSnapshot, [Self.entry("198.51.100.1", mac: "02:00:5e:00:53:01", state: .failed)])
        #expect(report.network?.gatewayMAC == nil)
        #expect(report.network?.dhcpServer == "198.51.100.1" && report.network?.domain == "home.example")
    }

    @Test func theGatesOfflineAnswerReadsNothing() throws {
        let (report, reads) = try Self.check(Kit.noRoute, [Self.entry("198.51.100.1", mac: "02:00:5e:00:53:01")])
        #expect(report.reason == .noDefaultRoute && reads == 0)
        #expect(report.network == nil)
        #expect(JSONFormatter.format(report).contains(#""network":{"dhcp_server":null,"domain":null,"gateway_mac":null,"id":null,"ssid":null}"#))
    }

    @Test func everyPathNamesItsNetwork() throws {
        let (report, reads) = try Self.check(Self.homeSnapshot, [Self.entry("198.51.100.1", mac: "02:00:5e:00:53:01")], allPaths: true)
        #expect(reads == 1)
        #expect(!report.paths.isEmpty && report.paths.allSatisfy { $0.network?.gatewayMAC == "02:00:5e:00:53:01" })
    }
}

/// On Wi-Fi, NetworkManager names the SSID of the device's active access point, asked in the
/// same session as its DHCP options; the network takes it from the lease of its own interface.
@Suite struct NetworkSSIDTests {
    @Test(arguments: [
        (BusValue.bytes(Array("Cafe Wi-Fi".utf8)), "Cafe Wi-Fi" as String?),
        (BusValue.variant(.bytes(Array("home".utf8))), "home"),
        (BusValue.bytes([0x48, 0xFF, 0x69]), "H\u{FFFD}i"),   // not UTF-8: replaced, alike on every machine
        (BusValue.bytes([]), nil),                          // hidden, or not associated
        (BusValue.bytes([UInt8](repeating: 0x61, count: 33)), nil),  // no SSID is longer than 32 bytes
        (BusValue.string("Cafe"), nil),                     // not the type the interface defines
    ])
    func theActiveAccessPointsSSID(value: BusValue, expected: String?) {
        var answer = NetworkManagerAnswer()
        answer.add(accessPoint: .array([.entry(.string("Strength"), .variant(.integer(70))), .entry(.string("Ssid"), value)]))
        #expect(answer.ssid == expected)
    }

    @Test func theSSIDIsThePathsOwnInterfaces() {
        var plan = PathPlan(interface: "wlan0", family: .ipv4, isDefault: true, gate: .pass(families: [.ipv4], interfaces: ["wlan0"]))
        plan.leases = [LeaseReader.Lease(source: "networkmanager", interface: "wlan1", ssid: "Neighbour"),
                       LeaseReader.Lease(source: "networkmanager", interface: "wlan0", server: "192.0.2.1", ssid: "Cafe")]
        let network = NetworkFinder.identity(plan, snapshot: Kit.dualStack, neighbours: [])
        #expect(network.ssid == "Cafe" && network.givenName == "Cafe")
        plan.interface = "eth0"
        #expect(NetworkFinder.identity(plan, snapshot: Kit.dualStack, neighbours: []).ssid == nil)
    }
}

/// A router that stops answering ARP is still the network it was: watch's next checks keep the
/// address it last saw while nothing else changed, so its outage counts on the right network.
@Suite struct GatewayMemoryTests {
    final class Changing: PathSource {
        var current: PathSnapshot
        var entries: [NeighbourTable.Entry]
        init(_ current: PathSnapshot, _ entries: [NeighbourTable.Entry]) {
            self.current = current
            self.entries = entries
        }
        func snapshot() throws(CheckError) -> PathSnapshot { current }
        func neighbours() -> [NeighbourTable.Entry] { entries }
    }

    @Test func aSilentGatewayKeepsItsNetworkUntilTheLinkGoes() throws {
        let answering = [NetworkFinderTests.entry("198.51.100.1", mac: "02:00:5e:00:53:01")]
        let silent = [NetworkFinderTests.entry("198.51.100.1", mac: nil, state: .failed)]
        let source = Changing(NetworkFinderTests.homeSnapshot, answering)
        let checker = Checker(source: source, makeRunner: { ScriptedRunner { _, _ in Kit.ok(5) } })
        let options = Kit.options(timeout: 0.3, families: [.ipv4])
        let home = try checker.run(options)
        #expect(home.network?.gatewayMAC == "02:00:5e:00:53:01")
        source.entries = silent
        let hung = try checker.run(options)
        #expect(hung.network?.id == home.network?.id)
        // Another domain is another network: nothing is carried over to it.
        source.current.dns.searchDomains = ["office.example"]
        #expect(try checker.run(options).network?.gatewayMAC == nil)
        source.current.dns.searchDomains = ["home.example"]
        #expect(try checker.run(options).network?.id == home.network?.id)
        // The link went down in between: whatever answers next may be another network.
        source.current = Kit.noRoute
        #expect(try checker.run(options).network == nil)
        source.current = NetworkFinderTests.homeSnapshot
        #expect(try checker.run(options).network?.gatewayMAC == nil)
        // A one-shot check remembers nothing.
        #expect(try Checker(source: source, makeRunner: { ScriptedRunner { _, _ in Kit.ok(5) } }).run(options).network?.gatewayMAC == nil)
    }
}
