#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import NetprobeWire
import NetprobeVerdict

/// The one reader of what the local DHCP/RA client recorded about a link: the Captive Portal
/// API URI the network announced (RFC 8910: DHCPv4 option 114, DHCPv6 option 103, RA option
/// 37) and the resolvers it announced (DHCPv4 option 6, RA RDNSS, DHCPv6). Sources, in order:
///
/// 1. systemd-networkd: `CAPTIVE_PORTAL=` and `DNS=` in `/run/systemd/netif/links/IFINDEX`
///    (the directory can be moved with `NETPROBE_NETIF_STATE_DIR`, for tests and labs);
/// 2. dhcpcd: options 114 and 6 of its binary lease `/var/lib/dhcpcd/IFNAME.lease`;
/// 3. ISC dhclient: the last unexpired `lease { }` block for the interface in the newest
///    `/var/lib/dhcp/dhclient*.lease*` that has one;
/// 4. NetworkManager's internal DHCP client: `CAPTIVE_PORTAL=` and `DNS=` in
///    `/var/lib/NetworkManager/internal-*-IFNAME.lease`.
///
/// Nothing is sent. Every file is read bounded (64 KiB), regular files only, no symbolic links.
/// The URI and the resolvers are each taken from the first lease that has them.
public struct LeaseReader: Sendable {
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

    /// Every directory the reader reads, for a watch on them (`DirectoryWatch`).
    public var directories: [String] {
        [networkdLinks] + dhcpcdDirectories + dhclientDirectories + [networkManagerDirectory]
    }

    /// The system's locations; `NETPROBE_NETIF_STATE_DIR` replaces networkd's links directory.
    public static func system(environment: (String) -> String? = ProcessEnvironment.value) -> LeaseReader {
        var reader = LeaseReader()
        if let directory = environment("NETPROBE_NETIF_STATE_DIR"), !directory.isEmpty { reader.networkdLinks = directory }
        return reader
    }

    /// What one lease (or link state file) says.
    public struct Lease: Sendable, Equatable {
        /// systemd-networkd, dhcpcd, dhclient, networkmanager
        public var source: String
        public var interface: String
        public var captivePortal: String?
        public var nameServers: [String]?
    }

    /// A Captive Portal API URI and where it was learned.
    public struct Found: Sendable, Equatable {
        public var uri: String
        /// option (`--capport-url`), systemd-networkd, dhcpcd, dhclient, networkmanager
        public var source: String
        public var interface: String?

        public init(uri: String, source: String, interface: String? = nil) {
            self.uri = uri
            self.source = source
            self.interface = interface
        }
    }

    /// The announced URI of the first interface of `through` (the kernel's own way out first)
    /// that has one recorded.
    public func captivePortal(path: PathSnapshot, through: [String]) -> Found? {
        for lease in leases(path: path, through: through) {
            if let uri = lease.captivePortal { return Found(uri: uri, source: lease.source, interface: lease.interface) }
        }
        return nil
    }

    /// The announced resolvers of the first interface of `through` whose client recorded
    /// usable ones.
    public func resolvers(path: PathSnapshot, through: [String]) -> LinkResolvers? {
        for lease in leases(path: path, through: through) {
            let valid = (lease.nameServers ?? []).filter { IPAddressText.address($0, zone: .plain, octets: .strict) != nil }
            if !valid.isEmpty {
                return LinkResolvers(servers: Array(valid.prefix(LinkResolvers.limit)), source: lease.source,
                                     interface: lease.interface)
            }
        }
        return nil
    }

    /// Every lease recorded for the interfaces of `through`, interface by interface, each in
    /// source order. Read lazily: a caller that stops at the first answer reads no further
    /// interfaces.
    func leases(path: PathSnapshot, through: [String]) -> LazySequence<FlattenSequence<LazyMapSequence<[String], [Lease]>>> {
        through.lazy.flatMap { name in
            self.leases(interface: name, index: path.interfaces.first { $0.name == name }?.index)
        }
    }

    /// The leases recorded for one interface, in source order.
    func leases(interface name: String, index: Int?) -> [Lease] {
        // Interface names come from the kernel, but never let one walk out of a directory.
        guard !name.isEmpty, !name.contains("/"), name != ".", name != ".." else { return [] }
        var found: [Lease] = []
        if let index, let text = Self.text("\(networkdLinks)/\(index)") {
            found.append(Lease(source: "systemd-networkd", interface: name,
                               captivePortal: KeyValueState.value("CAPTIVE_PORTAL", in: text),
                               nameServers: KeyValueState.value("DNS", in: text).map(Self.words)))
        }
        for directory in dhcpcdDirectories {
            for file in ["\(directory)/\(name).lease", "\(directory)/dhcpcd-\(name).lease"] {
                if let options = dhcpcdOptions(file) {
                    found.append(Lease(source: "dhcpcd", interface: name, captivePortal: DHCPMessage.captivePortal(options),
                                       nameServers: DHCPMessage.nameServers(options)))
                }
            }
        }
        for directory in dhclientDirectories {
            for file in Self.newestFirst(directory, matching: { $0.hasPrefix("dhclient") && $0.contains(".lease") }) {
                guard let text = Self.text(file) else { continue }
                // dhclient appends: the last unexpired block for the interface is the current one.
                guard let lease = DhclientLease.blocks(in: text).last(where: { $0.interface == name && !$0.expired(now: now) }) else {
                    continue
                }
                found.append(Lease(source: "dhclient", interface: name, captivePortal: lease.captivePortal,
                                   nameServers: lease.nameServers))
            }
        }
        for file in Self.list(networkManagerDirectory) where file.hasPrefix("internal-") && file.hasSuffix("-\(name).lease") {
            if let text = Self.text("\(networkManagerDirectory)/\(file)") {
                found.append(Lease(source: "networkmanager", interface: name,
                                   captivePortal: KeyValueState.value("CAPTIVE_PORTAL", in: text),
                                   nameServers: KeyValueState.value("DNS", in: text).map(Self.words)))
            }
        }
        return found
    }

    /// The options of a dhcpcd lease that has not expired: it has when the file is older than
    /// its lease time (option 51).
    func dhcpcdOptions(_ path: String) -> [UInt8: [UInt8]]? {
        guard let message = CheckedFile.bytes(path, limit: Self.limit, followSymlinks: false),
              let options = DHCPMessage.options(message) else { return nil }
        if let seconds = DHCPMessage.leaseTime(options), seconds != UInt32.max, let written = Self.modified(path),
           written.addingTimeInterval(TimeInterval(seconds)) < now {
            return nil
        }
        return options
    }

    static let limit = 64 * 1024

    static func text(_ path: String) -> String? {
        CheckedFile.text(path, limit: limit, followSymlinks: false)
    }

    static func modified(_ path: String) -> Date? {
        CheckedFile.modificationTime(path).map { Date(timeIntervalSince1970: $0) }
    }

    static func list(_ directory: String) -> [String] {
        DirectoryListing.names(in: directory).sorted()
    }

    static func words(_ value: String) -> [String] {
        value.split(separator: " ").map(String.init)
    }

    /// The files of `directory` whose names match, the most recently written first (each dated
    /// once, not at every comparison of the sort).
    static func newestFirst(_ directory: String, matching: (String) -> Bool) -> [String] {
        list(directory).filter(matching)
            .map { name in let path = "\(directory)/\(name)"; return (path: path, written: modified(path) ?? .distantPast) }
            .sorted { $0.written > $1.written }
            .map(\.path)
    }
}

/// The resolvers the network announced for a link, as the local DHCP/RA client recorded them.
/// Captive portals block every resolver but their own, so these are the ones to ask when the
/// configured ones fail.
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
