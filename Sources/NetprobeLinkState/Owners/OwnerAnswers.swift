import NetprobeWire

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
    /// The DHCP server that gave the lease (`dhcp_server_identifier`, option 54).
    public var dhcpServer: String?
    /// On Wi-Fi, the SSID of the device's active access point; nil on any other device.
    public var ssid: String?

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
        if dhcpServer == nil, let server = options["dhcp_server_identifier"]?.string { dhcpServer = server }
    }

    /// The properties of the device's active access point (org.freedesktop.NetworkManager.AccessPoint):
    /// its `Ssid` (ay, 1 to 32 bytes; decoded as UTF-8, anything else replaced, the same way on
    /// every machine).
    public mutating func add(accessPoint properties: BusValue) {
        guard case .bytes(let bytes)? = properties["Ssid"], (1...32).contains(bytes.count) else { return }
        ssid = String(decoding: bytes, as: UTF8.self)
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

/// What systemd-networkd says of one link over D-Bus (org.freedesktop.network1.Link's
/// `Describe`, a JSON object, as networkd 252 answers it): each DNS server with where it came
/// from (`"DNS": [{"Family": 2, "Address": [198, 51, 100, 1], "ConfigSource": "DHCPv4", ...}]`),
/// and the Captive Portal API URI where networkd keeps it (254 and newer: `"CaptivePortal"`).
/// Only servers the network announced (DHCPv4, DHCPv6, NDisc) are the link's: a static one is
/// the user's own setting.
public struct NetworkdAnswer: Sendable, Equatable {
    public var announced: [String] = []
    public var captivePortal: String?
    /// The DHCPv4 server of the lease: the `ConfigProvider` of a server whose source is DHCPv4
    /// (networkd names the lease's server identifier there).
    public var dhcpServer: String?

    public init(announced: [String] = [], captivePortal: String? = nil, dhcpServer: String? = nil) {
        self.announced = announced
        self.captivePortal = captivePortal
        self.dhcpServer = dhcpServer
    }

    static let networkSources: Set<String> = ["DHCPv4", "DHCPv6", "NDisc"]

    /// Nil when `json` is no JSON object (within 256 KB, 16 levels).
    public init?(describe json: [UInt8]) {
        guard let root = try? JSONReader.parse(json, limits: .init(maxBytes: 256 * 1024, maxDepth: 16)),
              case .object(let members) = root.content else { return nil }
        if case .array(let servers)? = members["DNS"]?.content {
            for server in servers {
                guard case .object(let fields) = server.content,
                      case .string(let source)? = fields["ConfigSource"]?.content, Self.networkSources.contains(source),
                      let address = Self.address(fields["Family"], fields["Address"]) else { continue }
                if !announced.contains(address) { announced.append(address) }
                if source == "DHCPv4", dhcpServer == nil, let provider = Self.bytes(fields["ConfigProvider"]),
                   provider.count == 4 {
                    dhcpServer = IPAddressFormat.text(provider[...])
                }
            }
        }
        if case .string(let uri)? = members["CaptivePortal"]?.content,
           !uri.isEmpty, uri.utf8.count <= 2048, uri.utf8.allSatisfy({ $0 >= 0x21 && $0 != 0x7F }) {
            captivePortal = uri
        }
    }

    /// An address as networkd writes one: its family (2 or 10) and its bytes as numbers.
    static func address(_ family: JSONValue?, _ address: JSONValue?) -> String? {
        guard case .number(let kind)? = family?.content, let bytes = bytes(address) else { return nil }
        guard (kind == 2 && bytes.count == 4) || (kind == 10 && bytes.count == 16) else { return nil }
        return IPAddressFormat.text(bytes[...])
    }

    /// An array of numbers 0-255 as bytes; nil for anything else.
    static func bytes(_ address: JSONValue?) -> [UInt8]? {
        guard case .array(let numbers)? = address?.content, numbers.count <= 16 else { return nil }
        var bytes: [UInt8] = []
        for number in numbers {
            guard case .number(let value) = number.content, value >= 0, value <= 255, value == value.rounded() else { return nil }
            bytes.append(UInt8(value))
        }
        return bytes
    }
}
