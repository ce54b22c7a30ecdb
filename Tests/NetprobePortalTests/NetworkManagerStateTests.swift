import Foundation
@testable import NetprobeWire
@testable import NetprobeLinkState
@testable import NetprobeSystem
import Testing

/// NetworkManager's record of a link, as NetworkManager 1.42.4 (Debian 12) wrote it with its
/// internal DHCP client, configured by dnsmasq offering options 6 and 114: the device state
/// keeps option 6 and drops 114, the internal lease keeps the address alone.
@Suite struct NetworkManagerStateTests {
    /// `/run/NetworkManager/devices/2`, as written (only the address and expiry replaced when asked).
    static func deviceState(address: String = "198.51.100.10", expiry: Int64 = 1_795_838_126) -> String {
        """
        [device]
        managed=true
        perm-hw-addr-fake=76:45:7B:B0:8F:4E
        connection-uuid=17beb79d-fe72-38fb-bbff-d1a4ab41ca78
        nm-owned=false
        route-metric-default-effective=100
        next-server=198.51.100.1

        [dhcp4]
        dhcp4.broadcast_address=198.51.100.255
        dhcp4.dhcp_client_identifier=01:76:45:7b:b0:8f:4e
        dhcp4.dhcp_lease_time=3600
        dhcp4.dhcp_server_identifier=198.51.100.1
        dhcp4.domain_name_servers=198.51.100.1
        dhcp4.expiry=\(expiry)
        dhcp4.host_name=vm
        dhcp4.ip_address=\(address)
        dhcp4.next_server=198.51.100.1
        dhcp4.routers=198.51.100.1
        dhcp4.subnet_mask=255.255.255.0

        """
    }

    @Test func theDeviceStateAsWritten() {
        #expect(NetworkManagerDeviceState(Self.deviceState())
                == NetworkManagerDeviceState(servers: ["198.51.100.1"], address: "198.51.100.10", expiry: 1_795_838_126,
                                             dhcpServer: "198.51.100.1"))
    }

    /// The internal client's lease: no resolver to read there.
    @Test func theInternalLeaseHasNoResolvers() {
        let lease = "# This is private data. Do not parse.\nADDRESS=198.51.100.10\n"
        #expect(NetworkManagerDeviceState(lease).servers.isEmpty)
    }

    /// DHCP4Config.Options and IP4Config.NameserverData, as `busctl` showed them from the same
    /// NetworkManager (the a{sv} of strings; the aa{sv} with `address`).
    @Test func theDBusAnswer() {
        let options = BusValue.array([
            .entry(.string("broadcast_address"), .variant(.string("198.51.100.255"))),
            .entry(.string("dhcp_lease_time"), .variant(.string("3600"))),
            .entry(.string("domain_name_servers"), .variant(.string("198.51.100.1 198.51.100.2"))),
            .entry(.string("expiry"), .variant(.string("1795838126"))),
            .entry(.string("ip_address"), .variant(.string("198.51.100.10"))),
            .entry(.string("requested_domain_name_servers"), .variant(.string("1"))),
            .entry(.string("routers"), .variant(.string("198.51.100.1"))),
        ])
        let nameservers = BusValue.array([.array([.entry(.string("address"), .variant(.string("203.0.113.53")))])])
        var answer = NetworkManagerAnswer()
        answer.add(dhcpOptions: options)
        answer.add(nameserverData: nameservers)
        #expect(answer == NetworkManagerAnswer(dhcpServers: ["198.51.100.1", "198.51.100.2"],
                                               configuredServers: ["203.0.113.53"], leasedAddress: "198.51.100.10"))
        // A value of another type where a string is expected is no value.
        var odd = NetworkManagerAnswer()
        odd.add(dhcpOptions: .array([.entry(.string("domain_name_servers"), .variant(.integer(1)))]))
        #expect(odd == NetworkManagerAnswer())
    }

    /// resolved's link properties (DNSEx a(iayqs), DNSOverTLS, DNSSEC, CurrentDNSServerEx).
    @Test func resolvedLinkProperties() {
        func server(_ family: Int64, _ bytes: [UInt8]) -> BusValue {
            .structure([.integer(family), .bytes(bytes), .integer(0), .string("")])
        }
        let properties = BusValue.array([
            .entry(.string("DNSEx"), .variant(.array([server(2, [198, 51, 100, 1]), server(10, Array(repeating: 0, count: 4)),
                                                     server(10, [0x20, 0x01, 0x0d, 0xb8] + Array(repeating: 0, count: 11) + [0x53])]))),
            .entry(.string("DNSOverTLS"), .variant(.string("yes"))),
            .entry(.string("DNSSEC"), .variant(.string("allow-downgrade"))),
            .entry(.string("CurrentDNSServerEx"), .variant(server(2, [198, 51, 100, 1]))),
        ])
        let answer = ResolvedAnswer(linkProperties: properties)
        #expect(answer == ResolvedAnswer(servers: ["198.51.100.1", "2001:db8::53"], dnsOverTLS: "yes",
                                         dnssec: "allow-downgrade", current: "198.51.100.1"))
        #expect(answer.tlsOnly)
    }
}

/// systemd-networkd's link `Describe` over D-Bus, as networkd 252 answered it in the lab (leased
/// by dnsmasq, option 6 the gateway).
@Suite struct NetworkdDescribeTests {
    static let real: [UInt8] = {
        let file = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../../fuzz/corpus/lease/networkd-describe.json").standardized
        return (try? Array(Data(contentsOf: file))) ?? []
    }()

    @Test func theAnswerAsGiven() {
        #expect(NetworkdAnswer(describe: Self.real) == NetworkdAnswer(announced: ["198.51.100.1"], dhcpServer: "198.51.100.1"))
    }

    /// A server set by hand (`DNS=` in the .network file) is the user's, not the network's.
    @Test func staticServersAreNotTheLinks() {
        let json = """
            {"DNS":[{"Family":2,"Address":[203,0,113,53],"ConfigSource":"static"},
                    {"Family":10,"Address":[32,1,13,184,0,0,0,0,0,0,0,0,0,0,0,83],"ConfigSource":"NDisc"},
                    {"Family":2,"Address":[198,51,100,300],"ConfigSource":"DHCPv4"},
                    {"Family":10,"Address":[198,51,100,1],"ConfigSource":"DHCPv4"}],
             "CaptivePortal":"https://capport.portal.test/api"}
            """
        #expect(NetworkdAnswer(describe: Array(json.utf8))
                == NetworkdAnswer(announced: ["2001:db8::53"], captivePortal: "https://capport.portal.test/api"))
        #expect(NetworkdAnswer(describe: Array("[1]".utf8)) == nil)
        #expect(NetworkdAnswer(describe: Array("{\"CaptivePortal\":\"a b\"}".utf8)) == NetworkdAnswer())
    }
}
