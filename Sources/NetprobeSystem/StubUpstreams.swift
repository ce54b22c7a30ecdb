import NetprobeWire
import NetprobeLinkState
import NetprobeVerdict

/// What a local stub resolver forwards to. A stub (systemd-resolved's 127.0.0.53, the dnsmasq
/// NetworkManager starts) answers from its cache or asks its own upstream servers, so only those
/// can be blocked by a network; the stub itself always differs from the link's resolvers, and a
/// slow first answer from it is its cache being cold, not a block. Sources:
///
/// 1. systemd-resolved (the stub is 127.0.0.53 or 127.0.0.54): asked over D-Bus (`asked`, only
///    for a check whose gate let probes through) for each link's servers and how it reaches them
///    (`DNSOverTLS`); before that, or when it does not answer, its files:
///    `/run/systemd/resolve/resolv.conf` (every upstream server it knows, as the no-stub
///    resolv.conf it writes for programs that bypass it) and its per-link state
///    `/run/systemd/resolve/netif/IFINDEX` (`SERVERS=`, the servers networkd or NetworkManager
///    gave it for that link, and `DNS_OVER_TLS=` when they set one). The directory can be moved
///    with `NETPROBE_RESOLVED_STATE_DIR`, for tests and labs.
/// 2. NetworkManager's own dnsmasq (`dns=dnsmasq`): `/run/NetworkManager/no-stub-resolv.conf`,
///    the servers it hands that plugin; only when NetworkManager manages DNS for this stub
///    (its `/run/NetworkManager/resolv.conf` names the stub the machine uses, and over D-Bus its
///    DNS mode is `dnsmasq`): NetworkManager writes that file whatever manages DNS.
///
/// Any other loopback resolver (dnscrypt-proxy, stubby, unbound) has unknown upstreams: it is
/// given the cold-cache patience, and the link's own resolvers are asked when it fails.
///
/// Nothing is sent to the network. Files are read bounded, no symbolic links for per-link state.
public struct StubUpstreams: Sendable, Equatable {
    public var resolvedDirectory: String
    public var networkManagerFile: String
    /// NetworkManager's own resolv.conf: what it would have the machine use.
    public var networkManagerResolvConf: String

    public init(resolvedDirectory: String = "/run/systemd/resolve",
                networkManagerFile: String = "/run/NetworkManager/no-stub-resolv.conf",
                networkManagerResolvConf: String = "/run/NetworkManager/resolv.conf") {
        self.resolvedDirectory = resolvedDirectory
        self.networkManagerFile = networkManagerFile
        self.networkManagerResolvConf = networkManagerResolvConf
    }

    /// The system's locations; `NETPROBE_RESOLVED_STATE_DIR` replaces systemd-resolved's directory.
    public static func system(environment: (String) -> String? = ProcessEnvironment.value) -> StubUpstreams {
        var upstreams = StubUpstreams()
        if let directory = environment("NETPROBE_RESOLVED_STATE_DIR"), !directory.isEmpty {
            upstreams.resolvedDirectory = directory
        }
        return upstreams
    }

    /// The upstream servers of `dns`'s stub and who said so; nil when `dns` names no local stub
    /// or its forwarder left no record. `interfaces` are read for resolved's per-link servers.
    public func read(_ dns: DNSConfiguration, interfaces: [NetworkInterface])
        -> (servers: [String], source: String, transport: String?)? {
        guard dns.localStub else { return nil }
        // resolved with no server recorded yet (as just started) left its upstreams unknown.
        if Self.isResolvedStub(dns), let found = resolved(interfaces: interfaces), !found.servers.isEmpty {
            return (found.servers, "systemd-resolved", found.transport)
        }
        if Self.networkManagerRunsStub(namedByItsResolvConf: networkManagerManages(dns), dnsMode: nil),
           let text = CheckedFile.text(networkManagerFile, limit: ResolvConf.readLimit) {
            let servers = Self.upstreams(ResolvConf.parse(text, source: networkManagerFile).servers)
            if !servers.isEmpty { return (servers, "networkmanager", nil) }
        }
        return nil
    }

    static func isResolvedStub(_ dns: DNSConfiguration) -> Bool {
        dns.servers.contains { $0 == "127.0.0.53" || $0 == "127.0.0.54" }
    }

    /// Whether the machine's stub is the one NetworkManager runs and feeds (its dnsmasq plugin),
    /// decided here alone: its resolv.conf names the loopback server the machine uses, and its
    /// DNS mode, where it answers over D-Bus, is `dnsmasq` (it writes no-stub-resolv.conf in
    /// every mode, so without the mode the file is all there is to go by).
    static func networkManagerRunsStub(namedByItsResolvConf: Bool, dnsMode: String?) -> Bool {
        namedByItsResolvConf && (dnsMode ?? "dnsmasq") == "dnsmasq"
    }

    /// NetworkManager's resolv.conf names a loopback server the machine uses.
    func networkManagerManages(_ dns: DNSConfiguration) -> Bool {
        guard let text = CheckedFile.text(networkManagerResolvConf, limit: ResolvConf.readLimit) else { return false }
        let its = ResolvConf.parse(text, source: networkManagerResolvConf).servers
        return its.contains { server in dns.servers.contains(server) && !ResolverAddress.isUsable(server) }
    }

    /// `dns` with what the stub's owner says of its upstreams, asked through its public
    /// interface: systemd-resolved's servers of every link and how it reaches them;
    /// NetworkManager's DNS mode (its no-stub-resolv.conf describes the stub only in `dnsmasq`
    /// mode). Called only for a check whose gate let probes through. `dns` as it is when nobody
    /// answers.
    public static func asked(_ dns: DNSConfiguration, interfaces: [NetworkInterface], owners: LinkOwners) -> DNSConfiguration {
        guard dns.localStub, let session = owners.session() else { return dns }
        var out = dns
        if isResolvedStub(dns) {
            var servers: [String] = []
            var modes: [String] = []
            for interface in interfaces where interface.type != .loopback {
                guard let answer = session.resolved(index: interface.index) else { continue }
                let usable = upstreams(answer.servers)
                for server in usable where !servers.contains(server) { servers.append(server) }
                if !usable.isEmpty { modes.append(answer.dnsOverTLS ?? "no") }
            }
            guard !modes.isEmpty else { return dns }
            out.upstreams = servers
            out.upstreamsSource = "systemd-resolved"
            out.upstreamsTransport = Self.transport(modes)
            return out
        }
        // Read from its files, the stub was NetworkManager's; its DNS mode settles it.
        if dns.upstreamsSource == "networkmanager",
           !networkManagerRunsStub(namedByItsResolvConf: true, dnsMode: session.networkManagerDNSMode()) {
            out.upstreams = []
            out.upstreamsSource = nil
            out.upstreamsTransport = nil
        }
        return out
    }

    /// resolved's upstream servers: its full list, then any per-link server it did not list
    /// (resolv.conf holds three at most), and how it reaches them (`transport`: each link's
    /// `DNS_OVER_TLS=`, unset being plain DNS). Nil when resolved left no resolv.conf (not running).
    func resolved(interfaces: [NetworkInterface]) -> (servers: [String], transport: String)? {
        guard let text = CheckedFile.text("\(resolvedDirectory)/resolv.conf", limit: ResolvConf.readLimit) else { return nil }
        var servers = Self.upstreams(ResolvConf.parse(text, source: "").servers)
        var modes: [String] = []
        for interface in interfaces where interface.type != .loopback {
            guard let state = CheckedFile.text("\(resolvedDirectory)/netif/\(interface.index)", limit: ResolvConf.readLimit,
                                               followSymlinks: false) else { continue }
            modes.append(KeyValueState.value("DNS_OVER_TLS", in: state) ?? "no")
            guard let value = KeyValueState.value("SERVERS", in: state) else { continue }
            for word in value.split(separator: " ") {
                if let server = Self.serverAddress(word), !servers.contains(server) { servers.append(server) }
            }
        }
        return (servers, Self.transport(modes))
    }

    /// How resolved reaches its upstreams, in one set of words whether its D-Bus interface or its
    /// files said it (`DNSOverTLS`, `DNS_OVER_TLS=`: yes, opportunistic, no): "tls" when a link
    /// takes TLS only (a network that drops port 853 drops every question), "opportunistic"
    /// when one tries TLS first, else "plain".
    static func transport(_ modes: [String]) -> String {
        modes.contains("yes") ? "tls" : modes.contains("opportunistic") ? "opportunistic" : "plain"
    }

    /// The addresses a stub can forward to: unicast, and not the machine's own (a loopback
    /// upstream is another local forwarder, whose upstreams are unknown).
    static func upstreams(_ servers: [String]) -> [String] {
        servers.filter { ResolverAddress.isUsable($0) }
    }

    /// One word of resolved's `SERVERS=`: `ADDR`, `ADDR:PORT`, `[ADDR]:PORT`, each optionally
    /// with `%IFINDEX` and `#SERVERNAME` (DNS-over-TLS). The address alone, when usable.
    static func serverAddress(_ word: Substring) -> String? {
        var text = word.prefix { $0 != "#" }
        if text.hasPrefix("[") {
            guard let close = text.firstIndex(of: "]") else { return nil }
            text = text[text.index(after: text.startIndex)..<close]
        } else if text.filter({ $0 == ":" }).count == 1 {
            text = text.prefix { $0 != ":" }  // IPv4 with a port
        }
        // The zone (an interface index here) is dropped: the server is asked on its link anyway.
        // One that is no interface name or index, or is on an address that takes none, makes
        // the word unusable.
        guard let parsed = ResolverAddress.parse(String(text)) else { return nil }
        return IPAddressFormat.text(parsed.bytes[...])
    }
}
