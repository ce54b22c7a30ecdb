import NetprobeWire
/// Which resolvers a path's answer rests on: the configured ones (resolv.conf, or the stub in
/// front of them), or the link's own (announced by DHCP or router advertisements), asked by
/// netprobe itself when the configured ones failed for the probe names.
public struct ResolverReport: Sendable, Equatable {
    public enum Used: String, Sendable {
        case configured, link
    }

    /// The link's announced resolvers; empty when none is known.
    public var link: [String]
    /// Where they were read: systemd-networkd, dhcpcd, dhclient, networkmanager.
    public var linkSource: String?
    public var linkInterface: String?
    public var used: Used
    /// The link's resolvers were asked (the configured ones had failed).
    public var linkAsked: Bool
    /// Why asking them gave no addresses, when it did not.
    public var linkError: String?
    /// The link resolver whose answers the verdict rests on.
    public var linkServer: String?
    /// The configured resolvers were asked again, after the link's had worked, before
    /// `resolver-blocked` was concluded (a slow first answer, a stub's cold cache, is no block).
    public var configuredRetried = false
    /// Lease files passed over for what they are, "PATH: why" (a file over the size limit is
    /// refused whole, never read cut short).
    public var leaseErrors: [String] = []

    public init(link: [String] = [], linkSource: String? = nil, linkInterface: String? = nil, used: Used = .configured,
                linkAsked: Bool = false, linkError: String? = nil, linkServer: String? = nil) {
        self.link = link
        self.linkSource = linkSource
        self.linkInterface = linkInterface
        self.used = used
        self.linkAsked = linkAsked
        self.linkError = linkError
        self.linkServer = linkServer
    }
}
