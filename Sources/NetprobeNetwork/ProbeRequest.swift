import NetprobeWire
import NetprobeVerdict
import NetprobeSystem

/// One HTTP probe to send: a GET of `url` whose answer is recorded, never judged here.
public struct ProbeRequest: Sendable, Equatable {
    /// Name carried into the observation (the probe's name in probes.json).
    public var name: String
    public var url: String
    /// Per-probe time limit in seconds; the overall deadline of `ProbeRunner.run` may cut it shorter.
    public var timeout: Double
    /// Bind the transfer to this network interface (CURLOPT_INTERFACE "if!NAME"), as NetworkManager does.
    public var interface: String?
    /// Resolve and connect over this family only (CURLOPT_IPRESOLVE); nil lets libcurl choose.
    public var family: AddressFamily?
    /// Keep at most this many body bytes; a longer body is cut there and flagged, not failed.
    public var maxBodyBytes: Int
    /// Extra request header lines ("Name: value"). A header named like a default one replaces it.
    public var extraHeaders: [String]
    /// CA bundle file for HTTPS (CURLOPT_CAINFO); nil uses the system bundle.
    public var caBundle: String?
    /// A hashed certificate directory (CURLOPT_CAPATH, `openssl rehash`) to trust instead of the
    /// system's; ignored when `caBundle` is set. Every HTTPS probe of a round that trusts the
    /// same directory shares one certificate store.
    public var caDirectory: String?
    /// The proxy to go through (`ProxySettings.proxy(for:)`); nil is direct, whatever the
    /// environment says: libcurl never reads proxy variables for a probe on its own.
    public var proxy: ProxyURL?
    /// Addresses to use for the URL's host instead of the system resolver's
    /// (CURLOPT_RESOLVE), when netprobe resolved it itself through the link's resolvers.
    public var pinnedAddresses: [String] = []
    /// When set: if the host has not resolved after this many seconds, the transfer ends with
    /// a DNS error (`ProbeRunner.unresolvedError`) rather than wait for the system resolver's
    /// own time-outs. Used only when the link's resolvers can be asked instead.
    public var resolveWithin: Double?
    /// Not sent when the round starts: it waits for `release` (a later wave), and a round that
    /// ends first reports it as cancelled, never sent. Its time limit still counts from the
    /// round's start, so a later wave never makes a check outlast its probe time-out.
    public var held = false

    public init(
        name: String, url: String, timeout: Double, interface: String? = nil, family: AddressFamily? = nil,
        maxBodyBytes: Int = 65536, extraHeaders: [String] = [], caBundle: String? = nil, proxy: ProxyURL? = nil,
        caDirectory: String? = nil
    ) {
        self.name = name
        self.url = url
        self.timeout = timeout
        self.interface = interface
        self.family = family
        self.maxBodyBytes = maxBodyBytes
        self.extraHeaders = extraHeaders
        self.caBundle = caBundle
        self.caDirectory = caDirectory
        self.proxy = proxy
    }
}

/// Why the HTTP layer itself could not be set up. Failures of single probes are
/// never thrown: they are reported in `ProbeObservation.transportError`.
public enum HTTPError: Error, Sendable, Equatable, CustomStringConvertible {
    /// libcurl.so.4 could not be loaded or lacks an entry point (the loader's text).
    case libraryUnavailable(String)
    /// curl_global_init failed (libcurl's CURLcode and its text).
    case globalInitFailed(code: Int, message: String)
    /// curl_multi_init returned NULL (out of memory).
    case multiInitFailed

    public var description: String {
        switch self {
        case let .libraryUnavailable(message):
            return message
        case let .globalInitFailed(code, message):
            return "libcurl global initialisation failed (CURLcode \(code)): \(message)"
        case .multiInitFailed:
            return "libcurl could not create a multi handle"
        }
    }
}
