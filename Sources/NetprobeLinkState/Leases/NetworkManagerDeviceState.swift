import NetprobeWire

/// NetworkManager's state of one device, `/run/NetworkManager/devices/IFINDEX`: a keyfile it
/// rewrites as the device changes, whose `[dhcp4]` and `[dhcp6]` groups hold the options the
/// DHCP server sent (`dhcp4.domain_name_servers=198.51.100.1`, `dhcp4.ip_address=`,
/// `dhcp4.expiry=` in seconds since the epoch). The place NetworkManager keeps a link's announced
/// resolvers when its D-Bus interface cannot be asked: its internal client's own lease file
/// records `ADDRESS=` alone. (1.42 keeps no option 114 here either.)
public struct NetworkManagerDeviceState: Sendable, Equatable {
    public var servers: [String] = []
    public var address: String?
    /// When the DHCPv4 lease ends (seconds since the epoch), when recorded.
    public var expiry: Int64?
    /// The DHCPv4 server that gave the lease (`dhcp4.dhcp_server_identifier=`, option 54).
    public var dhcpServer: String?

    public init(servers: [String] = [], address: String? = nil, expiry: Int64? = nil, dhcpServer: String? = nil) {
        self.servers = servers
        self.address = address
        self.expiry = expiry
        self.dhcpServer = dhcpServer
    }

    public init(_ text: String) {
        for key in ["dhcp4.domain_name_servers", "dhcp6.dhcp6_name_servers"] {
            servers += (KeyValueState.value(key, in: text) ?? "").split(separator: " ").map(String.init)
        }
        address = KeyValueState.value("dhcp4.ip_address", in: text)
        expiry = KeyValueState.value("dhcp4.expiry", in: text).flatMap { Int64($0) }
        dhcpServer = KeyValueState.value("dhcp4.dhcp_server_identifier", in: text)
    }
}
