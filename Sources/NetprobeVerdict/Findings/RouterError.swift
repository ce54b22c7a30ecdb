import NetprobeWire

/// An ICMP error a router sent about one of the check's connections (the kernel queued it on the
/// socket): which router, and what it said. It proves the packets got as far as that router, and
/// that the router has no way on for them.
public struct RouterError: Sendable, Equatable {
    public enum Kind: Sendable, Equatable {
        /// Network unreachable (IPv4), no route or a reject route (ICMPv6).
        case noRoute
        /// Host unreachable (IPv4), address unreachable (ICMPv6): the last router's neighbour is silent.
        case hostUnreachable
        /// Administratively prohibited: a filter that says so instead of dropping.
        case prohibited
        /// Port unreachable: the destination host itself refused, not a router on the way.
        case portUnreachable
        /// Time (hop limit) exceeded: the packets went round in a loop.
        case timeExceeded
        case other(type: UInt8, code: UInt8)
    }

    /// The router's address, as the kernel gave it.
    public var router: String
    public var family: AddressFamily
    public var kind: Kind
    /// The device the connection was bound to (`-i`, `--all-paths`); nil when the kernel chose.
    public var interface: String?

    public init(router: String, family: AddressFamily, kind: Kind, interface: String? = nil) {
        self.router = router
        self.family = family
        self.kind = kind
        self.interface = interface
    }

    /// From the error's ICMP (IPv4) or ICMPv6 type and code.
    public init(router: String, family: AddressFamily, icmpType: UInt8, code: UInt8, interface: String? = nil) {
        self.init(router: router, family: family, kind: Self.kind(family, type: icmpType, code: code), interface: interface)
    }

    /// RFC 792 and RFC 1812 (IPv4), RFC 4443 (ICMPv6).
    static func kind(_ family: AddressFamily, type: UInt8, code: UInt8) -> Kind {
        switch (family, type, code) {
        case (.ipv4, 3, 0), (.ipv4, 3, 6), (.ipv4, 3, 11), (.ipv6, 1, 0), (.ipv6, 1, 6): .noRoute
        case (.ipv4, 3, 1), (.ipv4, 3, 7), (.ipv4, 3, 12), (.ipv6, 1, 3): .hostUnreachable
        case (.ipv4, 3, 9), (.ipv4, 3, 10), (.ipv4, 3, 13), (.ipv6, 1, 1), (.ipv6, 1, 5): .prohibited
        case (.ipv4, 3, 3), (.ipv6, 1, 4): .portUnreachable
        case (.ipv4, 11, _), (.ipv6, 3, _): .timeExceeded
        default: .other(type: type, code: code)
        }
    }

    /// What the router said, in words.
    public var words: String {
        switch kind {
        case .noRoute: "network unreachable"
        case .hostUnreachable: "host unreachable"
        case .prohibited: "administratively prohibited"
        case .portUnreachable: "port unreachable"
        case .timeExceeded: "time exceeded"
        case .other(let type, let code): "\(family == .ipv6 ? "ICMPv6" : "ICMP") type \(type) code \(code)"
        }
    }
}
