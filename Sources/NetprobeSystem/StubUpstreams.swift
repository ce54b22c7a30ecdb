import NetprobeWire
import NetprobeVerdict

/// What a local stub resolver forwards to. A stub (systemd-resolved's 127.0.0.53, the dnsmasq
/// NetworkManager starts) answers from its cache or asks its own upstream servers, so only those
/// can be blocked by a network; the stub itself always differs from the link's resolvers, and a
/// slow first answer from it is its cache being cold, not a block. Sources:
///
/// 1. systemd-resolved (the stub is 127.0.0.53 or 127.0.0.54): `/run/systemd/resolve/resolv.conf`
///    (every upstream server it knows, as the no-stub resolv.conf it writes for programs that
///    bypass it) and its per-link state `/run/systemd/resolve/netif/IFINDEX` (`SERVERS=`, the
///    servers networkd or NetworkManager gave it for that link). The directory can be moved with
///    `NETPROBE_RESOLVED_STATE_DIR`, for tests and labs.
/// 2. NetworkManager with a local caching plugin (dnsmasq, any other loopback resolver):
///    `/run/NetworkManager/no-stub-resolv.conf`, the servers it hands that plugin.
///
/// Nothing is sent. Files are read bounded, no symbolic links for per-link state.
public struct StubUpstreams: Sendable, Equatable {
    public var resolvedDirectory: String
    public var networkManagerFile: String

    public init(resolvedDirectory: String = "/run/systemd/resolve",
                networkManagerFile: String = "/run/NetworkManager/no-stub-resolv.conf") {
        self.resolvedDirectory = resolvedDirectory
        self.networkManagerFile = networkManagerFile
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
    public func read(_ dns: DNSConfiguration, interfaces: [NetworkInterface]) -> (servers: [String], source: String)? {
        guard dns.localStub else { return nil }
        let resolvedStub = dns.servers.contains { $0 == "127.0.0.53" || $0 == "127.0.0.54" }
        if resolvedStub, let servers = resolved(interfaces: interfaces) {
            return (servers, "systemd-resolved")
        }
        if let text = CheckedFile.text(networkManagerFile, limit: ResolvConf.readLimit) {
            let servers = Self.upstreams(ResolvConf.parse(text, source: networkManagerFile).servers)
            if !servers.isEmpty { return (servers, "networkmanager") }
        }
        return nil
    }

    /// resolved's upstream servers: its full list, then any per-link server it did not list
    /// (resolv.conf holds three at most). Nil when resolved left no resolv.conf (not running).
    func resolved(interfaces: [NetworkInterface]) -> [String]? {
        guard let text = CheckedFile.text("\(resolvedDirectory)/resolv.conf", limit: ResolvConf.readLimit) else { return nil }
        var servers = Self.upstreams(ResolvConf.parse(text, source: "").servers)
        for interface in interfaces where interface.type != .loopback {
            guard let state = CheckedFile.text("\(resolvedDirectory)/netif/\(interface.index)", limit: ResolvConf.readLimit,
                                               followSymlinks: false),
                  let value = KeyValueState.value("SERVERS", in: state) else { continue }
            for word in value.split(separator: " ") {
                if let server = Self.serverAddress(word), !servers.contains(server) { servers.append(server) }
            }
        }
        return servers
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
