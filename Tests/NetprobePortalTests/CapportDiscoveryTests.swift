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

/// Finding the Captive Portal API URI from state files, in fixture directories.
@Suite struct LeaseReaderTests {
    /// A scratch tree standing in for /run and /var/lib; removed at the end of each test.
    final class Tree {
        let root: String
        init() throws {
            root = FileManager.default.temporaryDirectory.appendingPathComponent("netprobe-capport-\(UUID().uuidString)").path
            try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
        }
        deinit { try? FileManager.default.removeItem(atPath: root) }

        func write(_ relative: String, _ bytes: [UInt8], modified: Date? = nil) throws {
            let path = "\(root)/\(relative)"
            try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            try Data(bytes).write(to: URL(fileURLWithPath: path))
            if let modified { try FileManager.default.setAttributes([.modificationDate: modified], ofItemAtPath: path) }
        }

        func write(_ relative: String, _ text: String, modified: Date? = nil) throws {
            try write(relative, Array(text.utf8), modified: modified)
        }

        var discovery: LeaseReader {
            LeaseReader(networkdLinks: "\(root)/netif/links", dhcpcdDirectories: ["\(root)/dhcpcd"],
                             dhclientDirectories: ["\(root)/dhcp"], networkManagerDirectory: "\(root)/nm",
                             networkManagerDevices: "\(root)/nmdevices",
                             now: Date(timeIntervalSince1970: 1_800_000_000))
        }
    }

    static func path(_ links: [(String, Int, Int)]) -> PathSnapshot {
        PathSnapshot(
            interfaces: links.map {
                // Each link holds the address its lease gave: 198.51.100.<index>.
                NetworkInterface(name: $0.0, index: $0.1, type: .ethernet, up: true, carrier: true, operstate: "up", mtu: 1500,
                                 addresses: [InterfaceAddress(family: .ipv4, address: "198.51.100.\($0.1)", prefixLength: 24,
                                                              scope: .global)])
            },
            defaultRoutes: links.map { DefaultRoute(family: .ipv4, gateway: "198.51.100.1", interface: $0.0, interfaceIndex: $0.1, metric: $0.2, table: 254) },
            dns: DNSConfiguration(servers: [], localStub: false, source: "/etc/resolv.conf"))
    }

    static let eth0 = path([("eth0", 2, 100)])

    static func find(_ tree: Tree, _ path: PathSnapshot = eth0, explicit: String? = nil, through: [String] = ["eth0"]) -> LeaseReader.Found? {
        explicit.map { LeaseReader.Found(uri: $0, source: "option") } ?? tree.discovery.captivePortal(path: path, through: through)
    }

    static let networkdState = """
        # This is private data. Do not parse.
        ADMIN_STATE=configured
        OPER_STATE=routable
        CARRIER_STATE=carrier
        DNS=198.51.100.1
        CAPTIVE_PORTAL=https://capport.portal.test/api?client=1
        """

    @Test func networkdLinkStateFile() throws {
        let tree = try Tree()
        try tree.write("netif/links/2", Self.networkdState)
        #expect(Self.find(tree) == .init(uri: "https://capport.portal.test/api?client=1", source: "systemd-networkd", interface: "eth0"))
    }

    /// State files are never links; one that is (pointing the read at any file) is not read.
    @Test func aStateFileThatIsASymbolicLinkIsNotRead() throws {
        let tree = try Tree()
        try tree.write("elsewhere", Self.networkdState)
        try FileManager.default.createDirectory(atPath: "\(tree.root)/netif/links", withIntermediateDirectories: true)
        #expect(symlink("\(tree.root)/elsewhere", "\(tree.root)/netif/links/2") == 0)
        #expect(Self.find(tree) == nil)
    }

    @Test func explicitURLWins() throws {
        let tree = try Tree()
        try tree.write("netif/links/2", Self.networkdState)
        #expect(Self.find(tree, explicit: "https://other.example/") == .init(uri: "https://other.example/", source: "option"))
    }

    @Test func nothingRecordedIsNil() throws {
        let tree = try Tree()
        try tree.write("netif/links/2", "ADMIN_STATE=configured\nCAPTIVE_PORTAL=\n")
        #expect(Self.find(tree) == nil)
        #expect(Self.find(try Tree()) == nil)
    }

    /// Only the interfaces the gate let probes through count, in the gate's order (the kernel's
    /// own way out first), whatever the metrics of their default routes say.
    @Test func gateOrderAndSelection() throws {
        let tree = try Tree()
        try tree.write("netif/links/2", "CAPTIVE_PORTAL=https://wired.example/api\n")
        try tree.write("netif/links/3", "CAPTIVE_PORTAL=https://wifi.example/api\n")
        let both = Self.path([("eth0", 2, 600), ("wlan0", 3, 100)])
        #expect(Self.find(tree, both, through: ["eth0", "wlan0"])?.uri == "https://wired.example/api")
        #expect(Self.find(tree, both, through: ["wlan0", "eth0"])?.uri == "https://wifi.example/api")
        #expect(Self.find(tree, both, through: ["eth0"])?.uri == "https://wired.example/api")
        #expect(Self.find(tree, both, through: []) == nil)
    }

    @Test func environmentMovesTheNetworkdDirectory() {
        #expect(LeaseReader.system(environment: { ["NETPROBE_NETIF_STATE_DIR": "/tmp/lab/links"][$0] }).networkdLinks == "/tmp/lab/links")
        #expect(LeaseReader.system(environment: { _ in nil }).networkdLinks == "/run/systemd/netif/links")
    }

    /// A raw DHCP message as dhcpcd stores it: BOOTP header, cookie, options.
    /// `yiaddr` is eth0's address in the fixtures.
    static func dhcpMessage(_ options: [(UInt8, [UInt8])], yiaddr: [UInt8] = [198, 51, 100, 2]) -> [UInt8] {
        var message = [UInt8](repeating: 0, count: 16) + yiaddr + [UInt8](repeating: 0, count: 216) + [99, 130, 83, 99]
        for (code, value) in options { message += [code, UInt8(value.count)] + value }
        return message + [255]
    }

    @Test func dhcpcdBinaryLease() throws {
        let tree = try Tree()
        let uri = Array("https://capport.portal.test/dhcp".utf8)
        try tree.write("dhcpcd/eth0.lease", Self.dhcpMessage([(53, [5]), (0, []), (114, uri + [0]), (51, [0, 0, 0x0E, 0x10])]),
                       modified: Date(timeIntervalSince1970: 1_800_000_000 - 60))
        #expect(Self.find(tree) == .init(uri: "https://capport.portal.test/dhcp", source: "dhcpcd", interface: "eth0"))
    }

    @Test func expiredOrBrokenDhcpcdLeasesAreIgnored() throws {
        let tree = try Tree()
        let uri = Array("https://capport.portal.test/dhcp".utf8)
        // Written two hours before "now" with a one-hour lease.
        try tree.write("dhcpcd/eth0.lease", Self.dhcpMessage([(114, uri), (51, [0, 0, 0x0E, 0x10])]),
                       modified: Date(timeIntervalSince1970: 1_800_000_000 - 7200))
        #expect(Self.find(tree) == nil)
        try tree.write("dhcpcd/eth0.lease", Array(Self.dhcpMessage([(114, uri)]).prefix(250)))
        #expect(Self.find(tree) == nil)
        try tree.write("dhcpcd/eth0.lease", [UInt8](repeating: 0xFF, count: 100))
        #expect(Self.find(tree) == nil)
        try tree.write("dhcpcd/eth0.lease", Self.dhcpMessage([(114, Array("https://x.example/\u{1B}".utf8))]))
        #expect(Self.find(tree) == nil)
    }

    @Test func dhclientLeaseFile() throws {
        let tree = try Tree()
        try tree.write("dhcp/dhclient.leases", """
            lease {
              interface "eth0";
              fixed-address 198.51.100.2;
              option default-url "https://old.example/api";
              expire 4 2020/01/01 00:00:00;
            }
            lease {
              interface "wlan0";
              option default-url "https://wifi.example/api";
              expire never;
            }
            lease {
              interface "eth0";
              fixed-address 198.51.100.2;
              option captive-portal "https://capport.portal.test/dhclient";
              renew 2 2027/06/12 10:00:00;
              expire 2 2027/06/12 18:00:00;
            }
            """)
        #expect(Self.find(tree) == .init(uri: "https://capport.portal.test/dhclient", source: "dhclient", interface: "eth0"))
    }

    @Test func expiredDhclientLeaseIsIgnored() throws {
        let tree = try Tree()
        try tree.write("dhcp/dhclient.eth0.leases", """
            lease { interface "eth0"; option default-url "https://old.example/api"; expire 4 2020/01/01 00:00:00; }
            """)
        #expect(Self.find(tree) == nil)
    }

    /// Of several dhclient lease files, the most recently written one answers, whatever the names' order.
    @Test func newestDhclientLeaseFileWins() throws {
        let tree = try Tree()
        func leases(_ uri: String) -> String {
            "lease { interface \"eth0\"; fixed-address 198.51.100.2; option default-url \"\(uri)\"; expire never; }\n"
        }
        try tree.write("dhcp/dhclient.a.leases", leases("https://a.example/api"), modified: Date(timeIntervalSince1970: 1_700_000_000))
        try tree.write("dhcp/dhclient.b.leases", leases("https://b.example/api"), modified: Date(timeIntervalSince1970: 1_600_000_000))
        try tree.write("dhcp/not-dhclient.leases", leases("https://never.example/api"), modified: Date(timeIntervalSince1970: 1_790_000_000))
        #expect(Self.find(tree)?.uri == "https://a.example/api")
        try tree.write("dhcp/dhclient.b.leases", leases("https://b.example/api"), modified: Date(timeIntervalSince1970: 1_750_000_000))
        #expect(Self.find(tree)?.uri == "https://b.example/api")
    }

    /// NetworkManager's internal client records only the address it leased (as NetworkManager
    /// 1.42 wrote it): nothing to find there, and its device state keeps no option 114.
    @Test func networkManagerKeepsNoCaptivePortalAPI() throws {
        let tree = try Tree()
        try tree.write("nm/internal-17beb79d-fe72-38fb-bbff-d1a4ab41ca78-eth0.lease",
                       "# This is private data. Do not parse.\nADDRESS=198.51.100.2\n")
        try tree.write("nmdevices/2", NetworkManagerStateTests.deviceState(address: "198.51.100.2"))
        #expect(Self.find(tree) == nil)
    }

    /// networkd is asked first: it is the source of truth where it runs.
    @Test func networkdBeforeLeaseFiles() throws {
        let tree = try Tree()
        try tree.write("netif/links/2", "CAPTIVE_PORTAL=https://networkd.example/\n")
        try tree.write("dhcp/dhclient.leases", #"lease { interface "eth0"; option default-url "https://dhclient.example/"; }"#)
        #expect(Self.find(tree)?.source == "systemd-networkd")
    }

    /// The API query is bound and limited like the probes: interface only with -i, the gate's family.
    @Test func queryFollowsTheProbesBindingAndFamily() throws {
        let tree = try Tree()
        try tree.write("netif/links/2", Self.networkdState)
        let config = DefaultProbes.config()
        let bound = CheckOptions(config: config, interfaces: ["eth0"], timeout: 3, caBundle: "/lab/ca.pem", leases: tree.discovery)
        let query = try #require(CaptivePortalAPI.discover(bound, leases: tree.discovery.read(path: Self.eth0, through: ["eth0"]),
                                                                 families: [.ipv4], through: ["eth0"]))
        let request = try #require(query.request)
        #expect(request.interface == "eth0" && request.family == .ipv4 && request.timeout == 3 && request.caBundle == "/lab/ca.pem")
        #expect(query.report == nil)
        let free = CheckOptions(config: config, leases: tree.discovery)
        let unbound = try #require(CaptivePortalAPI.discover(free, leases: tree.discovery.read(path: Self.eth0, through: ["eth0"]),
                                                                     families: [.ipv4, .ipv6], through: ["eth0"])?.request)
        #expect(unbound.interface == nil && unbound.family == nil && unbound.timeout == config.probeTimeout)
        let explicit = CheckOptions(config: config, capportURL: CapportReport.unrestrictedURI, leases: tree.discovery)
        let unrestricted = try #require(CaptivePortalAPI.discover(explicit, leases: LeaseReader.Reading(),
                                                                        families: [.ipv4], through: ["eth0"]))
        #expect(unrestricted.request == nil && unrestricted.report?.state == .unrestricted && unrestricted.report?.source == "option")
    }

    /// State files are read bounded and never block: a FIFO or a huge file is harmless.
    @Test func hostileStateFiles() throws {
        let tree = try Tree()
        try FileManager.default.createDirectory(atPath: "\(tree.root)/netif/links", withIntermediateDirectories: true)
        #expect(mkfifo("\(tree.root)/netif/links/2", 0o600) == 0)
        #expect(Self.find(tree) == nil)
        try tree.write("dhcp/dhclient.leases", String(repeating: "lease { interface \"eth0\"; ", count: 100_000))
        #expect(Self.find(tree) == nil)
    }
}
