/// What NetworkManager says of one device over D-Bus: the DHCP options it received (DHCP4Config
/// and DHCP6Config `Options`), and the name servers of its IP configurations (IP4Config and
/// IP6Config `NameserverData`, which also hold servers set by hand and, for IPv6, RDNSS).
/// NetworkManager 1.42 keeps no DHCP option 114: the Captive Portal API is not asked of it.
public struct NetworkManagerAnswer: Sendable, Equatable {
    /// Option 6 (`domain_name_servers`) and DHCPv6's `dhcp6_name_servers`, as announced.
    public var dhcpServers: [String] = []
    /// The name servers of the device's IP configurations.
    public var configuredServers: [String] = []
    /// The address the DHCP lease gave (`ip_address`).
    public var leasedAddress: String?

    public init(dhcpServers: [String] = [], configuredServers: [String] = [], leasedAddress: String? = nil) {
        self.dhcpServers = dhcpServers
        self.configuredServers = configuredServers
        self.leasedAddress = leasedAddress
    }

    /// The options of DHCP4Config or DHCP6Config (a{sv} of strings) added to this answer.
    public mutating func add(dhcpOptions options: BusValue) {
        for key in ["domain_name_servers", "dhcp6_name_servers"] {
            dhcpServers += Self.words(options[key]?.string)
        }
        if leasedAddress == nil, let address = options["ip_address"]?.string { leasedAddress = address }
    }

    /// The `NameserverData` of IP4Config or IP6Config (aa{sv}, each with its `address`).
    public mutating func add(nameserverData: BusValue) {
        configuredServers += nameserverData.elements.compactMap { $0["address"]?.string }
    }

    static func words(_ text: String?) -> [String] {
        (text ?? "").split(separator: " ").map(String.init)
    }
}

/// What systemd-resolved says it uses for one link (org.freedesktop.resolve1.Link): its DNS
/// servers, how it reaches them (`DNSOverTLS`: "yes" is TLS only, port 853 or the port given;
/// "opportunistic" tries TLS and falls back to plain DNS; "no" is plain DNS), its DNSSEC mode and
/// the server in use now.
public struct ResolvedAnswer: Sendable, Equatable {
    public var servers: [String] = []
    /// yes, opportunistic, no
    public var dnsOverTLS: String?
    public var dnssec: String?
    public var current: String?

    public init(servers: [String] = [], dnsOverTLS: String? = nil, dnssec: String? = nil, current: String? = nil) {
        self.servers = servers
        self.dnsOverTLS = dnsOverTLS
        self.dnssec = dnssec
        self.current = current
    }

    /// From the link's properties (GetAll): `DNSEx` a(iayqs) where resolved has it (246 and
    /// newer), else `DNS` a(iay); `CurrentDNSServerEx` (iayqs) or `CurrentDNSServer` (iay).
    public init(linkProperties properties: BusValue) {
        let list = properties["DNSEx"] ?? properties["DNS"]
        servers = list?.elements.compactMap(Self.server) ?? []
        dnsOverTLS = properties["DNSOverTLS"]?.string
        dnssec = properties["DNSSEC"]?.string
        current = (properties["CurrentDNSServerEx"] ?? properties["CurrentDNSServer"]).flatMap(Self.server)
    }

    /// Only TLS reaches the servers: a network that drops port 853 drops every question.
    public var tlsOnly: Bool { dnsOverTLS == "yes" }

    /// One server: (family, address bytes, ...); the address as text when its family and length
    /// agree.
    static func server(_ value: BusValue) -> String? {
        let fields = value.elements
        guard fields.count >= 2, let family = fields[0].integer, case .bytes(let bytes) = fields[1].opened else { return nil }
        guard (family == 2 && bytes.count == 4) || (family == 10 && bytes.count == 16) else { return nil }
        return IPAddressFormat.text(bytes[...])
    }
}
