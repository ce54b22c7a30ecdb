import NetprobeWire
import NetprobeVerdict
import NetprobeOutput
import NetprobeSystem
import NetprobeNetwork

/// RFC 7050 on an IPv6-only path: the configured resolver asked for `ipv4only.arpa` AAAA,
/// once, so that "online over IPv6-only with NAT64" is told apart from native dual stack.
/// Nothing is asked on a path with IPv4, nor when IPv6 is down.
public enum NAT64Discovery {
    /// How long the resolver gets: it is a local DNS64 when there is one.
    static let patience: Duration = .milliseconds(1000)

    /// True when the machine's own way out is IPv6 only (IPv6 routed and addressed, IPv4 not).
    public static func applies(_ snapshot: PathSnapshot) -> Bool {
        guard case .pass(let families, _) = Gate.evaluate(snapshot, families: Set(AddressFamily.allCases)) else { return false }
        return families == [.ipv6]
    }

    /// The prefix, or nil when the resolvers show none (or answer nothing in time).
    public static func discover(_ snapshot: PathSnapshot, deadline: ContinuousClock.Instant) -> NAT64Prefix? {
        guard applies(snapshot) else { return nil }
        let until = min(deadline, ContinuousClock.now + patience)
        for server in snapshot.dns.servers.prefix(2) where IPAddressText.address(server, zone: .plain, octets: .strict) != nil {
            let question = DNSExchange.Question(name: NAT64Prefix.wellKnownName, type: .aaaa)
            guard case .success(let answer)? = DNSExchange.ask([question], server: server, interface: nil, deadline: until).first else {
                continue
            }
            for address in answer.addresses {
                if let bytes = IPAddressText.address(address), let prefix = NAT64Prefix.prefix(of: bytes) {
                    return NAT64Prefix(prefix: prefix, resolver: server)
                }
            }
            return nil  // the resolver answered: no DNS64 there
        }
        return nil
    }
}
