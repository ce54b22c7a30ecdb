#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import NetprobeCore

/// Finds the Captive Portal API URI (RFC 8910: DHCPv4 option 114, DHCPv6 option 103,
/// RA option 37) that the network announced, without sending anything: from
/// `--capport-url`, else from what the local DHCP/RA client recorded for the
/// interfaces the probes leave through, the machine's own way out first:
///
/// 1. systemd-networkd: `CAPTIVE_PORTAL=` in `/run/systemd/netif/links/IFINDEX`
///    (the directory can be moved with `NETPROBE_NETIF_STATE_DIR`, for tests and labs);
/// 2. dhcpcd: option 114 in its binary lease `/var/lib/dhcpcd/IFNAME.lease`;
/// 3. ISC dhclient: `option default-url` (its name for option 114) or `option captive-portal`
///    in the newest lease for the interface in `/var/lib/dhcp/dhclient*.lease*`;
/// 4. NetworkManager's internal DHCP client: `CAPTIVE_PORTAL=` in
///    `/var/lib/NetworkManager/internal-*-IFNAME.lease`, when that version records it.
///
/// Expired dhclient/dhcpcd leases are ignored. Every file is read bounded (64 KiB).
public struct CapportDiscovery: Sendable {
    public struct Found: Sendable, Equatable {
        public var uri: String
        /// option, systemd-networkd, dhcpcd, dhclient, networkmanager
        public var source: String
        public var interface: String?

        public init(uri: String, source: String, interface: String? = nil) {
            self.uri = uri
            self.source = source
            self.interface = interface
        }
    }

    public var networkdLinks: String
    public var dhcpcdDirectories: [String]
    public var dhclientDirectories: [String]
    public var networkManagerDirectory: String
    public var now: Date

    public init(networkdLinks: String = "/run/systemd/netif/links",
                dhcpcdDirectories: [String] = ["/var/lib/dhcpcd", "/var/db/dhcpcd", "/var/lib/dhcpcd5"],
                dhclientDirectories: [String] = ["/var/lib/dhcp", "/var/lib/dhclient"],
                networkManagerDirectory: String = "/var/lib/NetworkManager", now: Date = Date()) {
        self.networkdLinks = networkdLinks
        self.dhcpcdDirectories = dhcpcdDirectories
        self.dhclientDirectories = dhclientDirectories
        self.networkManagerDirectory = networkManagerDirectory
        self.now = now
    }

    /// The system's locations; `NETPROBE_NETIF_STATE_DIR` replaces networkd's links directory.
    public static func system(environment: (String) -> String? = ProcessEnvironment.value) -> CapportDiscovery {
        var discovery = CapportDiscovery()
        if let directory = environment("NETPROBE_NETIF_STATE_DIR"), !directory.isEmpty { discovery.networkdLinks = directory }
        return discovery
    }

    /// The URI for this check: `explicit` (from --capport-url) wins; else the first interface
    /// the gate let probes through (the kernel's own way out first) that has one recorded.
    public func discover(explicit: String?, path: PathSnapshot, through: [String]) -> Found? {
        if let explicit { return Found(uri: explicit, source: "option") }
        for name in through {
            let index = path.interfaces.first { $0.name == name }?.index
            if let found = lookup(interface: name, index: index) { return found }
        }
        return nil
    }

    func lookup(interface name: String, index: Int?) -> Found? {
        // Interface names come from the kernel, but never let one walk out of a directory.
        guard !name.isEmpty, !name.contains("/"), name != ".", name != ".." else { return nil }
        if let index, let uri = StateFiles.keyValue("CAPTIVE_PORTAL", in: "\(networkdLinks)/\(index)") {
            return Found(uri: uri, source: "systemd-networkd", interface: name)
        }
        for directory in dhcpcdDirectories {
            for file in ["\(directory)/\(name).lease", "\(directory)/dhcpcd-\(name).lease"] {
                if let uri = DHCPLease.captivePortal(inBinaryLease: file, now: now) {
                    return Found(uri: uri, source: "dhcpcd", interface: name)
                }
            }
        }
        for directory in dhclientDirectories {
            if let uri = DHCPLease.captivePortal(inDhclientLeases: directory, interface: name, now: now) {
                return Found(uri: uri, source: "dhclient", interface: name)
            }
        }
        for file in StateFiles.list(networkManagerDirectory) where file.hasPrefix("internal-") && file.hasSuffix("-\(name).lease") {
            if let uri = StateFiles.keyValue("CAPTIVE_PORTAL", in: "\(networkManagerDirectory)/\(file)") {
                return Found(uri: uri, source: "networkmanager", interface: name)
            }
        }
        return nil
    }
}
