#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import NetprobeWire
import NetprobeLinkState
import NetprobeVerdict

/// The one reader of what the program that configured a link recorded about it: the Captive
/// Portal API URI the network announced (RFC 8910: DHCPv4 option 114, DHCPv6 option 103, RA
/// option 37) and the resolvers it announced (DHCPv4 option 6, RA RDNSS, DHCPv6). The owner is
/// asked through its public interface first (`owners`), its files read only where it does not
/// answer:
///
/// 1. NetworkManager: over D-Bus, the device's DHCP4Config/DHCP6Config `Options`
///    (`domain_name_servers`, `ip_address`), its IP configurations' `NameserverData` and, on
///    Wi-Fi, its active access point's `Ssid`; else
///    its device state `/run/NetworkManager/devices/IFINDEX` (`dhcp4.domain_name_servers=`),
///    while the lease it records there has not expired. Its internal client's lease file holds
///    only `ADDRESS=` and is not read;
/// 2. systemd-networkd: over D-Bus, its link's `Describe` (the DNS servers DHCP or RAs gave, never
///    the static ones: those are the user's setting; `CaptivePortal` from 254); else
///    `CAPTIVE_PORTAL=` and `DNS=` in `/run/systemd/netif/links/IFINDEX`, the state sd-network
///    reads (libsystemd does not export sd-network; the directory can be moved with
///    `NETPROBE_NETIF_STATE_DIR`, for tests and labs): live
///    state, removed by networkd when the link goes, so it is taken as it is;
/// 3. dhcpcd: options 114 and 6 of its binary leases `/var/lib/dhcpcd/IFNAME.lease` (and
///    every other name it gives them: `LeaseReader+Dhcpcd.swift`), DHCPv6 options 103 and 23
///    of its `.lease6`;
/// 4. ISC dhclient: the last current `lease { }` block for the interface in each
///    `/var/lib/dhcp/dhclient*.lease*` (and NetworkManager's `dhclient-*-IFNAME.lease`).
///
/// A lease file outlives its network: a hotspot visited once leaves its lease behind. So a
/// lease counts only when it belongs to the network the interface is on now: it has not
/// expired (dhcpcd: the file's age against the lease time; dhclient: its `expire`, and none
/// readable is not trusted; NetworkManager: `dhcp4.expiry=`), and the address it gave is on the
/// interface now (NetworkManager's D-Bus answer too, when it names one: a daemon of another
/// network namespace may answer for a device of the same name). The owners' live answers come
/// first, then the most recently written lease. Asked at every check, with the time of that
/// check.
///
/// Nothing is sent to the network. Every file is read whole or not at all (a file over `limit`
/// is refused and said so, never read cut short), regular files only, no symbolic links.
public struct LeaseReader: Sendable {
    public var networkdLinks: String
    public var dhcpcdDirectories: [String]
    public var dhclientDirectories: [String]
    public var networkManagerDirectory: String
    /// NetworkManager's device state directory (`IFINDEX` files).
    public var networkManagerDevices: String
    /// The daemons asked before their files are read.
    public var owners: LinkOwners
    /// The time leases are judged at; nil: the current time at each read (a `watch` lives for days).
    public var now: Date?

    public init(networkdLinks: String = "/run/systemd/netif/links",
                dhcpcdDirectories: [String] = ["/var/lib/dhcpcd", "/var/db/dhcpcd", "/var/lib/dhcpcd5"],
                dhclientDirectories: [String] = ["/var/lib/dhcp", "/var/lib/dhclient"],
                networkManagerDirectory: String = "/var/lib/NetworkManager",
                networkManagerDevices: String = "/run/NetworkManager/devices", owners: LinkOwners = .none,
                now: Date? = nil) {
        self.networkdLinks = networkdLinks
        self.dhcpcdDirectories = dhcpcdDirectories
        self.dhclientDirectories = dhclientDirectories
        self.networkManagerDirectory = networkManagerDirectory
        self.networkManagerDevices = networkManagerDevices
        self.owners = owners
        self.now = now
    }

    /// Every directory the reader reads, for a watch on them (`DirectoryWatch`).
    public var directories: [String] {
        [networkdLinks] + dhcpcdDirectories + dhclientDirectories + [networkManagerDirectory, networkManagerDevices]
    }

    /// The system's locations, every owner asked; `NETPROBE_NETIF_STATE_DIR` replaces
    /// networkd's links directory.
    public static func system(environment: (String) -> String? = ProcessEnvironment.value) -> LeaseReader {
        var reader = LeaseReader(owners: .all)
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
        /// The address the lease gave; nil for networkd's live state, which records none.
        public var address: String?
        /// When the file was last written.
        public var written: Date?
        /// The DHCP server that gave the lease (option 54), where the client recorded it.
        public var server: String?
        /// On Wi-Fi, the SSID the link's owner says the interface is associated with.
        public var ssid: String?

        public init(source: String, interface: String, captivePortal: String? = nil, nameServers: [String]? = nil,
                    address: String? = nil, written: Date? = nil, server: String? = nil, ssid: String? = nil) {
            self.source = source
            self.interface = interface
            self.captivePortal = captivePortal
            self.nameServers = nameServers
            self.address = address
            self.written = written
            self.server = server
            self.ssid = ssid
        }
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

    /// The leases of the interfaces of `through` that count, and why files were passed over.
    public struct Reading: Sendable, Equatable {
        public var leases: [Lease] = []
        /// "PATH: why", for files that could not be read (too large, not a regular file).
        public var problems: [String] = []
    }

    /// The announced URI of the first interface of `through` (the kernel's own way out first)
    /// that has one recorded: systemd-networkd's `CaptivePortal` over D-Bus (254 and newer), else
    /// the files (NetworkManager 1.42 keeps no option 114 anywhere).
    public func captivePortal(path: PathSnapshot, through: [String]) -> Found? {
        captivePortal(read(path: path, through: through))
    }

    /// The announced URI of the first lease in `reading` that has one.
    public func captivePortal(_ reading: Reading) -> Found? {
        for lease in reading.leases {
            if let uri = lease.captivePortal { return Found(uri: uri, source: lease.source, interface: lease.interface) }
        }
        return nil
    }

    /// The announced resolvers of the first interface of `through` whose client recorded
    /// usable ones (`ResolverAddress`: unicast addresses of other hosts, zones only on
    /// link-local addresses and only the interface's own name).
    public func resolvers(path: PathSnapshot, through: [String]) -> LinkResolvers? {
        resolvers(read(path: path, through: through))
    }

    public func resolvers(_ reading: Reading) -> LinkResolvers? {
        for lease in reading.leases {
            let valid = ResolverAddress.filter(lease.nameServers ?? []).filter { server in
                ResolverAddress.parse(server).map { $0.zone == nil || $0.zone == lease.interface } ?? false
            }
            if !valid.isEmpty {
                return LinkResolvers(servers: Array(valid.prefix(LinkResolvers.limit)), source: lease.source,
                                     interface: lease.interface)
            }
        }
        return nil
    }

    /// Every lease that counts for the interfaces of `through`, interface by interface, the
    /// owners asked first.
    public func read(path: PathSnapshot, through: [String]) -> Reading {
        var reading = Reading()
        let now = self.now ?? Date()
        let session = through.isEmpty ? nil : owners.session()
        for name in through {
            let link = path.interfaces.first { $0.name == name }
            reading.leases += leases(interface: name, index: link?.index, addresses: link?.addresses ?? [], now: now,
                                     session: session, problems: &reading.problems)
        }
        return reading
    }

    /// The leases that count for one interface: the owners' live answers first (NetworkManager,
    /// then networkd), then the recorded leases newest first.
    func leases(interface name: String, index: Int?, addresses: [InterfaceAddress], now: Date,
                session: OwnerSession? = nil, problems: inout [String]) -> [Lease] {
        // Interface names come from the kernel, but never let one walk out of a directory.
        guard ResolverAddress.isInterfaceName(Substring(name)) else { return [] }
        var live = networkManager(interface: name, index: index, now: now, session: session, problems: &problems)
        var recorded: [Lease] = []
        if let index, let answer = session?.networkd(index: index) {
            if !answer.announced.isEmpty || answer.captivePortal != nil || answer.dhcpServer != nil {
                live.append(Lease(source: "systemd-networkd", interface: name, captivePortal: answer.captivePortal,
                                  nameServers: answer.announced.isEmpty ? nil : answer.announced, server: answer.dhcpServer))
            }
        } else if let index, let text = text("\(networkdLinks)/\(index)", &problems) {
            live.append(Lease(source: "systemd-networkd", interface: name,
                              captivePortal: KeyValueState.value("CAPTIVE_PORTAL", in: text),
                              nameServers: KeyValueState.value("DNS", in: text).map(Self.networkdServers)))
        }
        // A live answer naming an address the interface does not have is another namespace's.
        live = live.filter { lease in lease.address.map { Self.holds(addresses, $0) } ?? true }
        recorded += dhcpcdLeases(interface: name, addresses: addresses, now: now, problems: &problems)
        var dhclientFiles: [String] = []
        for directory in dhclientDirectories {
            dhclientFiles += Self.list(directory).filter { $0.hasPrefix("dhclient") && $0.contains(".lease") }
                .map { "\(directory)/\($0)" }
        }
        dhclientFiles += Self.list(networkManagerDirectory).filter { $0.hasPrefix("dhclient-") && $0.hasSuffix("-\(name).lease") }
            .map { "\(networkManagerDirectory)/\($0)" }
        for file in dhclientFiles {
            guard let text = text(file, &problems) else { continue }
            // dhclient appends: the last current block for the interface is the one in use.
            guard let block = DhclientLease.blocks(in: text).last(where: { $0.interface == name && !$0.expired(now: now) }) else {
                continue
            }
            recorded.append(Lease(source: "dhclient", interface: name, captivePortal: block.captivePortal,
                                  nameServers: block.nameServers, address: block.address, written: Self.modified(file),
                                  server: block.server))
        }
        // A lease whose address the interface no longer has is another network's.
        recorded = recorded.filter { lease in lease.address.map { Self.holds(addresses, $0) } ?? false }
        // The most recently written first; the sort is stable, so source order breaks ties.
        recorded.sort { ($0.written ?? .distantPast) > ($1.written ?? .distantPast) }
        return live + recorded
    }

    /// Whether the interface has `address` now.
    static func holds(_ addresses: [InterfaceAddress], _ address: String) -> Bool {
        guard let wanted = IPAddressText.address(address, octets: .strict) else { return false }
        return addresses.contains { IPAddressText.address($0.address, zone: .plain) == wanted }
    }

    /// NetworkManager's word on the device: over D-Bus when it answers, else its device state
    /// file while the DHCPv4 lease recorded there has not expired.
    func networkManager(interface name: String, index: Int?, now: Date, session: OwnerSession?,
                        problems: inout [String]) -> [Lease] {
        if let answer = session?.networkManager(interface: name) {
            let servers = answer.dhcpServers.isEmpty ? answer.configuredServers : answer.dhcpServers
            guard !servers.isEmpty || answer.dhcpServer != nil || answer.ssid != nil else { return [] }
            return [Lease(source: "networkmanager", interface: name, nameServers: servers.isEmpty ? nil : servers,
                          address: answer.leasedAddress, server: answer.dhcpServer, ssid: answer.ssid)]
        }
        guard let index, let text = text("\(networkManagerDevices)/\(index)", &problems) else { return [] }
        let state = NetworkManagerDeviceState(text)
        if let expiry = state.expiry, Date(timeIntervalSince1970: TimeInterval(expiry)) <= now { return [] }
        guard !state.servers.isEmpty || state.dhcpServer != nil, let address = state.address else { return [] }
        return [Lease(source: "networkmanager", interface: name, nameServers: state.servers.isEmpty ? nil : state.servers,
                      address: address, written: Self.modified("\(networkManagerDevices)/\(index)"), server: state.dhcpServer)]
    }

    /// A dhcpcd lease that has not expired: it has when the file is older than its lease time
    /// (option 51).
    func dhcpcdLease(_ path: String, interface: String, now: Date, problems: inout [String]) -> Lease? {
        guard let message = bytes(path, &problems), let options = DHCPMessage.options(message) else { return nil }
        let written = Self.modified(path)
        if let seconds = DHCPMessage.leaseTime(options), seconds != UInt32.max, let written,
           written.addingTimeInterval(TimeInterval(seconds)) <= now {
            return nil
        }
        return Lease(source: "dhcpcd", interface: interface, captivePortal: DHCPMessage.captivePortal(options),
                     nameServers: DHCPMessage.nameServers(options), address: DHCPMessage.yourAddress(message), written: written,
                     server: DHCPMessage.serverIdentifier(options))
    }

    /// Lease files are read whole: dhclient's grow as it appends, and one cut at a limit would
    /// end in half a block.
    static let limit = 256 * 1024

    func bytes(_ path: String, _ problems: inout [String]) -> [UInt8]? {
        do {
            return try CheckedFile.read(path, limit: Self.limit, followSymlinks: false)
        } catch .cannotOpen(let errno) where errno == .noSuchFileOrDirectory {
            return nil
        } catch {
            problems.append("\(path): \(error.description)")
            return nil
        }
    }

    func text(_ path: String, _ problems: inout [String]) -> String? {
        bytes(path, &problems).map { String(decoding: $0, as: UTF8.self) }
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

    /// networkd's `DNS=`: addresses, each possibly as `ADDR:PORT`, `[ADDR]:PORT`, with
    /// `%IFINDEX` and `#NAME`; the address alone (with its zone as the interface's index is
    /// not kept: the link's resolvers are asked on the link anyway).
    static func networkdServers(_ value: String) -> [String] {
        value.split(separator: " ").map { word in StubUpstreams.serverAddress(word) ?? String(word) }
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
