/// The kernel's view of the network at one instant: what `netprobe path` prints
/// and what the gate reads. Plain values, no C: NetprobeLink fills it in.
public enum AddressFamily: String, Codable, Sendable, CaseIterable {
    case ipv4
    case ipv6
}

public enum InterfaceType: String, Codable, Sendable {
    case ethernet, wifi, cellular, loopback, virtual, tunnel, other
}

public enum AddressScope: String, Codable, Sendable {
    case global, site, link, host
}

public struct InterfaceAddress: Codable, Sendable, Equatable {
    public var family: AddressFamily
    public var address: String
    public var prefixLength: Int
    public var scope: AddressScope

    public init(family: AddressFamily, address: String, prefixLength: Int, scope: AddressScope) {
        self.family = family
        self.address = address
        self.prefixLength = prefixLength
        self.scope = scope
    }

    enum CodingKeys: String, CodingKey {
        case family, address, scope
        case prefixLength = "prefix_length"
    }
}

public struct NetworkInterface: Codable, Sendable, Equatable {
    public var name: String
    public var index: Int
    public var type: InterfaceType
    /// The rtnetlink link kind ("veth", "bridge", "wireguard", ...) when the kernel gives one.
    public var kind: String?
    /// Administratively up (IFF_UP).
    public var up: Bool
    /// The lower layer has carrier (IFF_LOWER_UP).
    public var carrier: Bool
    /// RFC 2863 operational state as the kernel names it ("up", "down", "dormant", "unknown", ...).
    public var operstate: String
    public var mtu: Int
    public var hardwareAddress: String?
    /// Metered path (cellular / WWAN), as NWPath.isExpensive.
    public var expensive: Bool
    public var addresses: [InterfaceAddress]

    public init(
        name: String, index: Int, type: InterfaceType, kind: String? = nil, up: Bool, carrier: Bool,
        operstate: String, mtu: Int, hardwareAddress: String? = nil, expensive: Bool = false,
        addresses: [InterfaceAddress] = []
    ) {
        self.name = name
        self.index = index
        self.type = type
        self.kind = kind
        self.up = up
        self.carrier = carrier
        self.operstate = operstate
        self.mtu = mtu
        self.hardwareAddress = hardwareAddress
        self.expensive = expensive
        self.addresses = addresses
    }

    /// Up with carrier: able to carry traffic now.
    public var usable: Bool { up && carrier && operstate != "down" && operstate != "lowerlayerdown" }

    enum CodingKeys: String, CodingKey {
        case name, index, type, kind, up, carrier, operstate, mtu, expensive, addresses
        case hardwareAddress = "hardware_address"
    }
}

public struct DefaultRoute: Codable, Sendable, Equatable {
    public var family: AddressFamily
    public var gateway: String?
    public var interface: String?
    public var interfaceIndex: Int?
    public var metric: Int
    public var table: Int

    public init(family: AddressFamily, gateway: String?, interface: String?, interfaceIndex: Int?, metric: Int, table: Int) {
        self.family = family
        self.gateway = gateway
        self.interface = interface
        self.interfaceIndex = interfaceIndex
        self.metric = metric
        self.table = table
    }

    enum CodingKeys: String, CodingKey {
        case family, gateway, interface, metric, table
        case interfaceIndex = "interface_index"
    }
}

public struct DNSConfiguration: Codable, Sendable, Equatable {
    public var servers: [String]
    public var searchDomains: [String]
    /// A local stub resolver (127.0.0.53, ::1, ...) stands between us and the real servers.
    public var localStub: Bool
    public var source: String

    public init(servers: [String], searchDomains: [String] = [], localStub: Bool, source: String) {
        self.servers = servers
        self.searchDomains = searchDomains
        self.localStub = localStub
        self.source = source
    }

    enum CodingKeys: String, CodingKey {
        case servers, source
        case searchDomains = "search_domains"
        case localStub = "local_stub"
    }
}

public struct PathSnapshot: Codable, Sendable, Equatable {
    public var interfaces: [NetworkInterface]
    /// Unicast default routes only (blackhole/unreachable/prohibit routes lead nowhere).
    public var defaultRoutes: [DefaultRoute]
    public var dns: DNSConfiguration

    public init(interfaces: [NetworkInterface], defaultRoutes: [DefaultRoute], dns: DNSConfiguration) {
        self.interfaces = interfaces
        self.defaultRoutes = defaultRoutes
        self.dns = dns
    }

    enum CodingKeys: String, CodingKey {
        case interfaces, dns
        case defaultRoutes = "default_routes"
    }
}
