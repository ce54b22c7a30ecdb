#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import NetprobeCore

/// The resolvers the network announced for a link (DHCPv4 option 6, IPv6 RA RDNSS, DHCPv6),
/// as the local DHCP/RA client recorded them: the same state files the Captive Portal URI
/// is read from (`CapportDiscovery`), in the same order. Captive portals block every
/// resolver but their own, so these are the ones to ask when the configured ones fail.
public struct LinkResolvers: Sendable, Equatable {
    /// IP addresses, in the order recorded (at most `limit`).
    public var servers: [String]
    /// systemd-networkd, dhcpcd, dhclient, networkmanager
    public var source: String
    public var interface: String

    public init(servers: [String], source: String, interface: String) {
        self.servers = servers
        self.source = source
        self.interface = interface
    }

    static let limit = 4
}

extension CapportDiscovery {
    /// The first interface of `through` whose client recorded resolvers for it.
    public func resolvers(path: PathSnapshot, through: [String]) -> LinkResolvers? {
        for name in through {
            let index = path.interfaces.first { $0.name == name }?.index
            if let found = resolvers(interface: name, index: index) { return found }
        }
        return nil
    }

    func resolvers(interface name: String, index: Int?) -> LinkResolvers? {
        guard !name.isEmpty, !name.contains("/"), name != ".", name != ".." else { return nil }
        func found(_ servers: [String], _ source: String) -> LinkResolvers? {
            let valid = servers.filter { IPAddressText.address($0, zone: .plain, octets: .strict) != nil }
            return valid.isEmpty ? nil : LinkResolvers(servers: Array(valid.prefix(LinkResolvers.limit)), source: source,
                                                        interface: name)
        }
        if let index, let value = StateFiles.keyValue("DNS", in: "\(networkdLinks)/\(index)"),
           let result = found(value.split(separator: " ").map(String.init), "systemd-networkd") {
            return result
        }
        for directory in dhcpcdDirectories {
            for file in ["\(directory)/\(name).lease", "\(directory)/dhcpcd-\(name).lease"] {
                if let servers = DHCPLease.nameServers(inBinaryLease: file, now: now), let result = found(servers, "dhcpcd") {
                    return result
                }
            }
        }
        for directory in dhclientDirectories {
            if let servers = DHCPLease.nameServers(inDhclientLeases: directory, interface: name, now: now),
               let result = found(servers, "dhclient") {
                return result
            }
        }
        for file in StateFiles.list(networkManagerDirectory) where file.hasPrefix("internal-") && file.hasSuffix("-\(name).lease") {
            if let value = StateFiles.keyValue("DNS", in: "\(networkManagerDirectory)/\(file)"),
               let result = found(value.split(separator: " ").map(String.init), "networkmanager") {
                return result
            }
        }
        return nil
    }
}
