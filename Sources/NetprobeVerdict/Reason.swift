import NetprobeWire
/// Why a verdict is what it is: the stable kebab-case codes of the JSON `reason` key,
/// the Prometheus `reason` label and the man page. Code compares these cases, never strings.
public enum Reason: String, CaseIterable, Sendable {
    case probesValidated = "probes-validated"
    case httpRedirect = "http-redirect"
    case http511 = "http-511"
    case wrongContent = "wrong-content"
    case dnsHijack = "dns-hijack"
    case capportCaptive = "capport-captive"
    case noLink = "no-link"
    case noAddress = "no-address"
    case noDefaultRoute = "no-default-route"
    case noProbes = "no-probes"
    case dnsFailed = "dns-failed"
    case connectFailed = "connect-failed"
    case timeout
    case tlsFailed = "tls-failed"
    case protocolError = "protocol-error"
    case httpError = "http-error"
    case quorumNotMet = "quorum-not-met"
    case proxyAuthRequired = "proxy-auth-required"
    case proxyFailed = "proxy-failed"
    case resolverBlocked = "resolver-blocked"

    /// One sentence for people: the text output, `wait`'s progress line and the man page.
    public var meaning: String {
        switch self {
        case .probesValidated: return "a quorum of independent endpoints answered exactly as expected"
        case .httpRedirect: return "probe requests were redirected: a captive portal intercepts HTTP"
        case .http511: return "probe requests were answered 511 Network Authentication Required"
        case .wrongContent: return "probe requests were answered with a page other than the expected one"
        case .dnsHijack: return "probe host names resolve to private or reserved addresses"
        case .capportCaptive: return "the network's Captive Portal API (RFC 8908) says this client is captive"
        case .noLink: return "no interface is up with carrier"
        case .noAddress: return "no usable interface has a global address"
        case .noDefaultRoute: return "there is no default route through a usable interface"
        case .noProbes: return "no probe applies to the selected families and interfaces"
        case .dnsFailed: return "probe host names did not resolve"
        case .connectFailed: return "connections were refused, reset or unreachable"
        case .timeout: return "probes got no answer before the deadline"
        case .tlsFailed: return "TLS handshakes or certificate checks failed"
        case .protocolError: return "endpoints answered with something that is not HTTP"
        case .httpError: return "endpoints answered with HTTP errors (4xx/5xx) or empty pages"
        case .quorumNotMet: return "some endpoints answered correctly, but fewer independent operators than the quorum"
        case .proxyAuthRequired: return "the proxy answered 407: it wants credentials before it relays the probes"
        case .proxyFailed: return "the proxy could not be reached or used (its name, a refused or dropped connection, a CONNECT refused)"
        case .resolverBlocked: return "the configured resolvers do not answer on this network while the network's own do: the network works, this machine's DNS setting does not"
        }
    }

    /// The path itself is down (the kernel's view): nothing was sent.
    public var isPathDown: Bool {
        self == .noLink || self == .noAddress || self == .noDefaultRoute
    }
}
