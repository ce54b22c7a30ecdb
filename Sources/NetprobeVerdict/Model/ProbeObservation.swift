import NetprobeWire
/// What one HTTP probe saw on the wire, before any judgement. NetprobeNetwork
/// fills it in; `Classifier` turns it into evidence.

/// Why a transfer produced no usable HTTP answer.
public enum TransportErrorKind: String, Sendable {
    case dns            // the name did not resolve
    case refused        // connection refused (RST to SYN)
    case unreachable    // no route / host or network unreachable
    case timeout        // the per-probe or overall deadline passed
    case tls            // handshake or certificate failure
    case reset          // connection reset or closed mid-answer
    case proto = "protocol" // not HTTP: garbage, malformed status line or headers
    case cancelled      // stopped because the verdict was already decided
    case proxy          // the explicit proxy, not the far side, failed: see TransportError.cause
    case other
}

public struct TransportError: Sendable, Equatable {
    public var kind: TransportErrorKind
    /// libcurl's CURLcode, for people debugging.
    public var code: Int
    public var message: String
    /// For kind `.proxy`: what went wrong on the way to the proxy (dns, refused, unreachable,
    /// timeout, reset, tls, protocol); nil when the proxy answered but would not relay
    /// (then `ProbeObservation.proxyConnectStatus` says how).
    public var cause: TransportErrorKind?

    public init(kind: TransportErrorKind, code: Int, message: String, cause: TransportErrorKind? = nil) {
        self.kind = kind
        self.code = code
        self.message = message
        self.cause = cause
    }
}

/// Phase timings in milliseconds since the transfer started, as libcurl measures them.
public struct ProbeTimings: Sendable, Equatable {
    public var dnsMs: Double?
    public var connectMs: Double?
    public var tlsMs: Double?
    public var firstByteMs: Double?
    public var totalMs: Double

    public init(dnsMs: Double? = nil, connectMs: Double? = nil, tlsMs: Double? = nil, firstByteMs: Double? = nil, totalMs: Double) {
        self.dnsMs = dnsMs
        self.connectMs = connectMs
        self.tlsMs = tlsMs
        self.firstByteMs = firstByteMs
        self.totalMs = totalMs
    }
}

public struct ProbeObservation: Sendable, Equatable {
    public var name: String
    public var url: String
    /// HTTP status of the final (only: redirects are never followed) response; nil when none arrived.
    public var status: Int?
    /// Response headers in arrival order, names lower-cased, count and size bounded.
    public var headers: [(name: String, value: String)]
    /// The first bytes of the body, at most the configured cap.
    public var body: [UInt8]
    /// The body was longer than the cap; reading stopped there.
    public var bodyTruncated: Bool
    public var transportError: TransportError?
    public var timings: ProbeTimings
    /// The far side's address. Nil through a proxy: only the proxy knows where the name led.
    public var remoteAddress: String?
    /// The proxy the request went through, without credentials (`ProxyURL.redacted`); nil: direct.
    public var proxy: String?
    /// The proxy's own address (libcurl's CURLINFO_PRIMARY_IP when a proxy was used).
    public var proxyAddress: String?
    /// The proxy's answer to CONNECT (an https URL through an http proxy; CURLINFO_HTTP_CONNECTCODE):
    /// 200 when the tunnel opened, 407 for credentials, 403/502... when refused; nil when none came.
    public var proxyConnectStatus: Int?
    /// The realm of the proxy's `Proxy-Authenticate` challenge when it answered 407 (never credentials).
    public var proxyAuthRealm: String?
    /// Whose answer the host's addresses came from: "configured" (the system's resolvers),
    /// "link" (the link's own, asked by netprobe and pinned), "proxy" (the proxy resolves);
    /// nil when nothing was resolved (an IP literal, or never sent).
    public var resolver: String?
    /// The device the probe's traffic left through: its binding, or the kernel's route for the
    /// address it connected to (the proxy's, through a proxy); nil when it connected nowhere.
    public var interface: String?
    /// HTTP bytes as libcurl counts them: the request's headers and body sent, the answer's headers
    /// and body received (not TLS records, not TCP/IP headers). What a metered link pays at least.
    public var bytesSent = 0
    public var bytesReceived = 0

    public init(
        name: String, url: String, status: Int? = nil, headers: [(name: String, value: String)] = [],
        body: [UInt8] = [], bodyTruncated: Bool = false, transportError: TransportError? = nil,
        timings: ProbeTimings = ProbeTimings(totalMs: 0), remoteAddress: String? = nil,
        proxy: String? = nil, proxyAddress: String? = nil, proxyConnectStatus: Int? = nil, proxyAuthRealm: String? = nil
    ) {
        self.name = name
        self.url = url
        self.status = status
        self.headers = headers
        self.body = body
        self.bodyTruncated = bodyTruncated
        self.transportError = transportError
        self.timings = timings
        self.remoteAddress = remoteAddress
        self.proxy = proxy
        self.proxyAddress = proxyAddress
        self.proxyConnectStatus = proxyConnectStatus
        self.proxyAuthRealm = proxyAuthRealm
    }

    /// The proxy asked for credentials (407), to the request itself (http URL) or to CONNECT (https).
    /// Only a proxy we chose counts: a 407 from a server reached directly is just an odd 4xx.
    public var proxyAuthRequired: Bool {
        proxy != nil && (status == 407 || proxyConnectStatus == 407)
    }

    /// First value of a header, by case-insensitive name.
    public func header(_ name: String) -> String? {
        let wanted = name.lowercased()
        return headers.first { $0.name == wanted }?.value
    }

    public static func == (lhs: ProbeObservation, rhs: ProbeObservation) -> Bool {
        lhs.name == rhs.name && lhs.url == rhs.url && lhs.status == rhs.status
            && lhs.headers.elementsEqual(rhs.headers, by: { $0.name == $1.name && $0.value == $1.value })
            && lhs.body == rhs.body && lhs.bodyTruncated == rhs.bodyTruncated
            && lhs.transportError == rhs.transportError && lhs.timings == rhs.timings
            && lhs.remoteAddress == rhs.remoteAddress && lhs.proxy == rhs.proxy
            && lhs.proxyAddress == rhs.proxyAddress && lhs.proxyConnectStatus == rhs.proxyConnectStatus
            && lhs.proxyAuthRealm == rhs.proxyAuthRealm && lhs.resolver == rhs.resolver && lhs.interface == rhs.interface
    }
}
