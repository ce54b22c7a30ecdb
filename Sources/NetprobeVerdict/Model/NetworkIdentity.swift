import NetprobeWire

/// Which network a path is on, from what the network itself says on every machine attached to
/// it: its gateway's link-layer address, the DHCP server that leased the address, the DNS
/// domain and, on Wi-Fi, the SSID. Nothing is sent to learn them (the kernel's neighbour table,
/// the lease already read, resolv.conf). The machine's own address and interface name are never
/// part of it: two machines on one network must get the same `id`.
public struct NetworkIdentity: Sendable, Equatable {
    /// The gateway's link-layer address, lower-case hex pairs joined by colons.
    public var gatewayMAC: String?
    /// The DHCP server identifier (option 54) of the lease that gave the path's address.
    public var dhcpServer: String?
    /// The DNS domain, lower case, without a trailing dot.
    public var domain: String?
    /// The Wi-Fi network's name; nil on a wired link or when it is not known.
    public var ssid: String?

    public init(gatewayMAC: String? = nil, dhcpServer: String? = nil, domain: String? = nil, ssid: String? = nil) {
        self.gatewayMAC = gatewayMAC.map { $0.lowercased() }
        self.dhcpServer = dhcpServer
        self.domain = domain.flatMap(Self.domain)
        self.ssid = ssid
    }

    /// The text the id is a digest of: a version line, then one `part=value` line for each part
    /// known, in this order; unknown parts are left out (not written empty). The SSID comes last,
    /// so that its bytes, whatever they are, cannot be read as another part.
    public var canonicalText: String? {
        let parts = [("gateway_mac", gatewayMAC), ("dhcp_server", dhcpServer), ("domain", domain), ("ssid", ssid)]
        let known = parts.compactMap { name, value in value.map { "\(name)=\($0)\n" } }
        return known.isEmpty ? nil : "netprobe-network-v1\n" + known.joined()
    }

    /// The first 12 hex digits (48 bits) of the SHA-256 of `canonicalText`; nil when no part is known.
    public var id: String? {
        canonicalText.map { String(SHA256.hex(Array($0.utf8)).prefix(12)) }
    }

    /// What a person calls it: the SSID, else the domain, else the gateway's address, else the
    /// DHCP server; nil when no part is known.
    public var name: String? { ssid ?? domain ?? gatewayMAC ?? dhcpServer }

    /// The name a person gave the network (its SSID or its domain), not one read off a device.
    public var givenName: String? { ssid ?? domain }

    /// A search domain as the id takes it: lower case, no trailing dot; nil for the root or a
    /// name with characters no domain has.
    static func domain(_ text: String) -> String? {
        var name = text.lowercased()
        if name.hasSuffix(".") { name.removeLast() }
        guard !name.isEmpty, name.utf8.count <= 253,
              name.utf8.allSatisfy({ ($0 >= 0x61 && $0 <= 0x7a) || ($0 >= 0x30 && $0 <= 0x39) || $0 == 0x2d || $0 == 0x2e || $0 == 0x5f })
        else { return nil }
        return name
    }
}
