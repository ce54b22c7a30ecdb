import NetprobeWire

/// The one DHCPINFORM a check may send (RFC 2131 section 3.4): when the probes show a portal
/// and the machine knows no Captive Portal API URI (RFC 8910), the network may still announce
/// one, as many DHCP clients drop option 114 (systemd-networkd before v254, NetworkManager).
/// It goes only from a leased address (`client`): a static network seldom has a server to
/// answer, and the wait would delay its every portal verdict. The answer's option 114 is
/// asked like any announced API; its option 6 is the link's resolvers when none was known.
/// It goes only to the server that leased the address, and only that server's answer counts:
/// any station on the link hears the request, and what it could send never becomes a login
/// URL or a resolver.
public struct DHCPInformReport: Sendable, Equatable {
    public enum State: String, Sendable {
        /// A server answered with a DHCPACK.
        case answered
        /// No answer within the bound (one retransmit), or a DHCPNAK.
        case noAnswer = "no-answer"
        /// This process may not send it (binding UDP port 68 needs CAP_NET_BIND_SERVICE).
        case notPermitted = "not-permitted"
        /// It could not be sent (no IPv4 address on the interface, a socket error).
        case failed
        /// Not sent: the interface's IPv4 addresses are all permanent (configured statically,
        /// not leased), so no DHCP server is known to be there to answer.
        case staticAddress = "static-address"
        /// Not sent: no lease of the interface names its server (option 54), and an answer is
        /// believed only from that server.
        case noServer = "no-server"
        /// Not sent: this lease's server was asked earlier in this process (a watch) and gave
        /// no answer that could be seen; it is asked again once the lease changes. (One that
        /// answered is not asked again either: its answer is used, `remembered`.)
        case unansweredBefore = "unanswered-before"
    }

    /// The interface it was sent on, from `clientAddress` (ciaddr).
    public var interface: String
    public var clientAddress: String?
    public var state: State
    public var error: String?
    /// The server that leased the address (its option 54, as the lease records it): the one
    /// asked, and the only one whose answer counts.
    public var server: String?
    /// Option 114 of the answer, when it held a URI.
    public var captivePortal: String?
    /// Option 6 of the answer, the usable addresses only.
    public var nameServers: [String]
    /// From the first send to the answer (or to giving up).
    public var durationMs: Double?
    /// Answers that were not the lease's server's answer to this request (another source,
    /// another option 54, another xid, chaddr or ciaddr): never used.
    public var ignored: Int
    /// Why the last of them was not taken.
    public var ignoredReason: String?
    /// The answer is the one this lease's server gave an earlier check of this process (a
    /// watch): nothing was sent for it now.
    public var remembered = false

    public init(interface: String, clientAddress: String?, state: State, error: String? = nil, server: String? = nil,
                captivePortal: String? = nil, nameServers: [String] = [], durationMs: Double? = nil, ignored: Int = 0,
                ignoredReason: String? = nil) {
        self.interface = interface
        self.clientAddress = clientAddress
        self.state = state
        self.error = error
        self.server = server
        self.captivePortal = captivePortal
        self.nameServers = nameServers
        self.durationMs = durationMs
        self.ignored = ignored
        self.ignoredReason = ignoredReason
    }

    /// Whether the request went out (or was tried): not for an address, lease or server that
    /// ruled it out before anything was sent.
    public var sent: Bool {
        switch state {
        case .answered, .noAnswer, .notPermitted, .failed: return true
        case .staticAddress, .noServer, .unansweredBefore: return false
        }
    }

    /// The `capport.source` of a URI learned from the answer.
    public static let source = "dhcpinform"
    /// The bound on the whole exchange, the retransmit included: it delays a portal verdict
    /// that is already known, so it stays short (a DHCP server sits on the local link).
    public static let bound: Duration = .milliseconds(500)

    /// Whether a path's check sends it: only once its conclusion is a portal (never on a
    /// path the gate said offline, never on an online network), only when no API URI is
    /// known for it (`capport` nil: none announced, none given with --capport-url), only on
    /// a path that can use IPv4, and only when the check allows asking the network.
    public static func shouldAsk(_ conclusion: Conclusion, capport: CapportReport?, families: Set<AddressFamily>,
                                 allowed: Bool) -> Bool {
        allowed && conclusion.verdict == .portal && capport == nil && families.contains(.ipv4)
    }

    /// The address it is sent from (ciaddr): the interface's first leased global IPv4 address
    /// (one with a finite lifetime: a DHCP client configured it, so a server is there to
    /// answer). Only static ones: the first of them and `leased` false, and it is not sent
    /// (waiting out the bound for a server that a static network seldom has would delay
    /// every portal verdict). nil when the interface has no global IPv4 address.
    public static func client(_ addresses: [InterfaceAddress]) -> (address: InterfaceAddress, leased: Bool)? {
        let candidates = addresses.filter { $0.family == .ipv4 && $0.scope == .global }
        if let leased = candidates.first(where: \.dynamic) { return (leased, true) }
        return candidates.first.map { ($0, false) }
    }
}
