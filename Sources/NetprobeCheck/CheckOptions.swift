import NetprobeWire
import NetprobeVerdict
import NetprobeOutput
import NetprobeSystem
import NetprobeNetwork

/// Everything one check needs to know, built once per command from its options.
public struct CheckOptions: Sendable {
    public var config: ProbeConfig
    public var families: Set<AddressFamily>
    public var interfaces: [String]
    /// Hard deadline for the whole check, in seconds.
    public var timeout: Double
    public var caBundle: String?
    /// `--capport-url`: the Captive Portal API URI to ask, instead of the one the network announced.
    public var capportURL: String?
    /// Where announced Captive Portal API URIs are looked up (tests point it at fixtures).
    public var leases: LeaseReader
    /// `--all-paths`: probe every (interface, family) with a default route on its own.
    public var allPaths: Bool
    /// Which proxy each probe goes through (`--proxy`, `--no-proxy`, else the environment as curl
    /// reads it). The Captive Portal API query and the canary always go direct: they ask the
    /// local network, not the Internet.
    public var proxy: ProxySettings
    /// Ask the link's own resolvers when the configured ones fail (`--no-link-resolvers`: never).
    public var askLinkResolvers = true
    /// Ask the network by DHCPINFORM for the Captive Portal API the machine did not keep
    /// (`DHCPInformFallback`), once a path shows a portal.
    public var askNetwork = true
    /// Send the probes in waves (`WavePlan`): what settles a healthy network first, the rest
    /// only when something fails, disagrees or is slow. The commands always do; a test that
    /// scripts every probe's answer may send them all at once.
    public var hedged = false
    /// Which first wave each path sends (`FirstWaves`): drawn at random for every check; tests
    /// that script the answers pick one.
    public var waveDraw = WaveDraw.random
    /// Re-check lean where the checker's `NetworkMemory` says full checks proved the network
    /// open (`LeanRecheck`): watch's re-checks; a one-shot check always sends a full first wave.
    public var lean = false

    /// These options with every re-check full.
    public var full: CheckOptions {
        var options = self
        options.lean = false
        return options
    }

    public init(config: ProbeConfig, families: Set<AddressFamily> = Set(AddressFamily.allCases), interfaces: [String] = [],
                timeout: Double? = nil, caBundle: String? = nil, capportURL: String? = nil,
                leases: LeaseReader = .system(), allPaths: Bool = false,
                proxy: ProxySettings = ProxySettings(choice: .none)) {
        self.config = config
        self.families = families
        self.interfaces = interfaces
        self.timeout = timeout ?? config.timeout
        self.caBundle = caBundle
        self.capportURL = capportURL
        self.leases = leases
        self.allPaths = allPaths
        self.proxy = proxy
    }

    /// The same check with another deadline (wait gives each check what time is left).
    public func with(timeout: Double) -> CheckOptions {
        var copy = self
        copy.timeout = timeout
        return copy
    }
}

public enum CheckError: Error, CustomStringConvertible {
    case netlink(String)
    case http(String)

    public var description: String {
        switch self {
        case .netlink(let message): return "cannot read the network state from the kernel: \(message)"
        case .http(let message): return "cannot start the HTTP client: \(message)"
        }
    }
}
