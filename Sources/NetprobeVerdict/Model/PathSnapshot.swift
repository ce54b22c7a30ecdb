import NetprobeWire

/// The kernel's view of the network at one instant: what `netprobe path` prints
/// and what the gate reads. Plain values, no C: NetprobeSystem fills it in.
public enum InterfaceType: String, Sendable {
    case ethernet, wifi, cellular, loopback, virtual, tunnel, other
}

public enum AddressScope: String, Sendable {
    case global, site, link, host
}

public struct InterfaceAddress: Sendable, Equatable {
    public var family: AddressFamily
    public var address: String
    public var prefixLength: Int
    public var scope: AddressScope
    /// Seconds the kernel keeps the address (valid_lft); nil when it is permanent. A DHCP
    /// client (ISC dhclient-script, dhcpcd, systemd-networkd, NetworkManager) sets it to the
    /// lease time; an address configured by hand or from a static configuration has none.
    public var validLifetime: UInt32?

    /// Leased or autoconfigured: it expires unless renewed (a DHCP lease, SLAAC).
    public var dynamic: Bool { validLifetime != nil }

    public init(family: AddressFamily, address: String, prefixLength: Int, scope: AddressScope,
                validLifetime: UInt32? = nil) {
        self.family = family
        self.address = address
        self.prefixLength = prefixLength
        self.scope = scope
        self.validLifetime = validLifetime
    }
}

public struct NetworkInterface: Sendable, Equatable {
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
}

public struct DefaultRoute: Sendable, Equatable {
    /// RT_TABLE_MAIN: the table plain routing uses.
    public static let mainTable = 254

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
}

/// The kernel's answer to "which way does the machine's ordinary traffic to this destination
/// leave?", asked as `ip route get` asks it: a destination, no output device, no mark, so every
/// policy rule, table, metric and `suppress_prefixlength` is applied by the kernel itself
/// (wg-quick's `not fwmark` table, Tailscale's table 52, source routing). This answer, not a
/// ranking of default routes by metric, says which path is the machine's own.
public struct RouteAnswer: Sendable, Equatable {
    public var family: AddressFamily
    /// The address asked about (nothing is sent to it).
    public var destination: String
    /// The output device; nil when the kernel has no way out.
    public var interface: String?
    public var interfaceIndex: Int?
    public var gateway: String?
    /// The source address the kernel would choose.
    public var source: String?
    /// The routing table whose route matched (254 main, 51820 wg-quick's, ...).
    public var table: Int?
    /// Why there is no way out, when there is none.
    public var refusal: RouteRefusal?

    public init(family: AddressFamily, destination: String, interface: String? = nil, interfaceIndex: Int? = nil,
                gateway: String? = nil, source: String? = nil, table: Int? = nil, refusal: RouteRefusal? = nil) {
        self.family = family
        self.destination = destination
        self.interface = interface
        self.interfaceIndex = interfaceIndex
        self.gateway = gateway
        self.source = source
        self.table = table
        self.refusal = refusal
    }

    /// Where the kernel is asked, when no probe address is known yet: one global unicast
    /// address per family, the ones WebRTC and others use to learn the route a host takes to
    /// the Internet. Only a route lookup names them; no packet is ever addressed to them.
    public static func representativeDestination(_ family: AddressFamily) -> String {
        switch family {
        case .ipv4: "8.8.8.8"
        case .ipv6: "2001:4860:4860::8888"
        }
    }
}

/// Why the kernel routes a destination nowhere (the error `ip route get` prints).
public enum RouteRefusal: String, Sendable, Equatable {
    /// No route at all (ENETUNREACH).
    case noRoute = "no-route"
    /// An `unreachable` route (EHOSTUNREACH).
    case unreachable
    /// A `blackhole` route (EINVAL).
    case blackhole
    /// A `prohibit` route (EACCES).
    case prohibit
    /// A route that is not a way out (local, broadcast, ...), or another error.
    case other
}

public struct DNSConfiguration: Sendable, Equatable {
    public var servers: [String]
    public var searchDomains: [String]
    /// A local stub resolver (127.0.0.53, ::1, ...) stands between us and the real servers.
    public var localStub: Bool
    public var source: String
    /// What the stub forwards to (`StubUpstreams`): the servers a network can block. Empty when
    /// there is no stub or its forwarder left no record.
    public var upstreams: [String]
    /// Who recorded them: systemd-resolved, networkmanager; nil when `upstreams` is empty.
    public var upstreamsSource: String?
    /// How the stub reaches them, when its owner said: `tls` (DNS over TLS only: a network
    /// that drops it drops every question, and the link's plain resolvers are never asked
    /// through the stub), `opportunistic` (TLS, else plain DNS), `plain`; nil when unknown.
    public var upstreamsTransport: String?

    public init(servers: [String], searchDomains: [String] = [], localStub: Bool, source: String,
                upstreams: [String] = [], upstreamsSource: String? = nil, upstreamsTransport: String? = nil) {
        self.servers = servers
        self.searchDomains = searchDomains
        self.localStub = localStub
        self.source = source
        self.upstreams = upstreams
        self.upstreamsSource = upstreamsSource
        self.upstreamsTransport = upstreamsTransport
    }

    /// The servers the machine's questions really leave for: the stub's upstreams when they are
    /// known, else the configured servers.
    public var effectiveServers: [String] {
        localStub && !upstreams.isEmpty ? upstreams : servers
    }
}

public struct PathSnapshot: Sendable, Equatable {
    public var interfaces: [NetworkInterface]
    /// Unicast default routes only (blackhole/unreachable/prohibit routes lead nowhere).
    /// Every unicast default route, in every table but local: the candidate paths of
    /// `--all-paths`. Which of them the machine's traffic takes is `kernelRoutes`' answer.
    public var defaultRoutes: [DefaultRoute]
    /// The kernel's route for ordinary traffic, one per family asked (IPv4 first).
    public var kernelRoutes: [RouteAnswer]
    public var dns: DNSConfiguration
    /// The NAT64 prefix of an IPv6-only path (RFC 7050, `NAT64Discovery`); nil elsewhere or
    /// when the resolver shows none. Not the kernel's: asked of the resolver after the read.
    public var nat64: NAT64Prefix?

    public init(interfaces: [NetworkInterface], defaultRoutes: [DefaultRoute], kernelRoutes: [RouteAnswer] = [],
                nat64: NAT64Prefix? = nil, dns: DNSConfiguration) {
        self.interfaces = interfaces
        self.defaultRoutes = defaultRoutes
        self.nat64 = nat64
        self.kernelRoutes = kernelRoutes
        self.dns = dns
    }

    /// The kernel's answer for this family, when it was asked.
    public func kernelRoute(_ family: AddressFamily) -> RouteAnswer? {
        kernelRoutes.first { $0.family == family }
    }
}
