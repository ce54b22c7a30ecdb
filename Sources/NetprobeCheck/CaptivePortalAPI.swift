import NetprobeWire
import NetprobeVerdict
import NetprobeOutput
import NetprobeSystem
import NetprobeNetwork

/// Asking the Captive Portal API (RFC 8908) that discovery found: one more GET on the
/// same ProbeRunner as the probes, so it runs concurrently with them and under the same
/// deadline. HTTPS only (certificates verified), `Accept: application/captive+json`,
/// at most 16 KiB read, never a redirect followed.
struct CaptivePortalAPI {
    /// The request's name in the runner; a probe name can never contain '#'.
    static let requestName = "#capport"
    /// How long the API may still answer once the probes alone have decided the verdict: it was
    /// sent with them and usually sits on the local network, so a slow or black-holed API
    /// costs an online check at most this much, not a whole probe timeout.
    static let grace: Duration = .seconds(1)

    let found: LeaseReader.Found

    /// Why the URI is not asked at all: the network said "unrestricted", or it is not an https URL.
    var reportWithoutQuery: CapportReport? {
        if found.uri == CapportReport.unrestrictedURI {
            return CapportReport(uri: found.uri, source: found.source, interface: found.interface, state: .unrestricted)
        }
        guard Self.isHTTPS(found.uri) else {
            // The same for --capport-url as for a DHCP announcement: not asked, and said why.
            return CapportReport(uri: found.uri, source: found.source, interface: found.interface, state: .failed,
                                 error: Self.notHTTPSError)
        }
        return nil
    }

    /// The request, or nil when the URI is not to be asked (see `reportWithoutQuery`).
    /// With -i the probes are bound to an interface, and so is the API query.
    func request(timeout: Double, interface: String?, caBundle: String?) -> ProbeRequest? {
        guard reportWithoutQuery == nil else { return nil }
        return ProbeRequest(name: Self.requestName, url: found.uri, timeout: timeout, interface: interface,
                            maxBodyBytes: CapportParser.maxBytes, extraHeaders: ["Accept: application/captive+json"],
                            caBundle: caBundle)
    }

    func report(from observation: ProbeObservation) -> CapportReport {
        var report = CapportReport.from(observation, uri: found.uri, source: found.source, interface: found.interface)
        if observation.transportError?.kind == .cancelled {
            report.error = "no answer within \(Self.grace.components.seconds) s of the probes' verdict"
        }
        return report
    }

    static func isHTTPS(_ uri: String) -> Bool {
        CapportReport.isHTTPS(uri)
    }

    /// The report's error for a URI that is not https (RFC 8908 section 2: the API is served over TLS).
    public static let notHTTPSError = "not queried: not an https URL (RFC 8908 requires the API to be served over TLS)"
}

extension CaptivePortalAPI {
    /// What one check does about the API: the request to add to the probes, or the report
    /// to give without asking (unrestricted, or a URI that must not be asked).
    struct Query {
        let api: CaptivePortalAPI
        var request: ProbeRequest?
        let report: CapportReport?
    }

    /// The query for this check, or nil when no API URI is known: `leases` are the path's, as
    /// its plan read them (the owners asked once).
    static func discover(_ options: CheckOptions, leases: LeaseReader.Reading, families: Set<AddressFamily>,
                         through: [String]) -> Query? {
        // --capport-url wins over whatever the network announced.
        let announced = options.capportURL.map { LeaseReader.Found(uri: $0, source: "option") }
        guard let found = announced ?? options.leases.captivePortal(leases) else { return nil }
        // Bound like the probes: only with -i, then to the interface the URI was learned on
        // (or, for --capport-url, the one the probes use).
        let binding = options.interfaces.isEmpty
            ? nil : (found.interface ?? through.first { options.interfaces.contains($0) } ?? options.interfaces.first)
        return query(found, options: options, families: families, binding: binding)
    }

    /// The query for a URI found, its request bound to `binding` when given.
    static func query(_ found: LeaseReader.Found, options: CheckOptions, families: Set<AddressFamily>,
                      binding: String?) -> Query {
        let api = CaptivePortalAPI(found: found)
        var request = api.request(timeout: min(options.config.probeTimeout, options.timeout), interface: binding,
                                  caBundle: options.caBundle)
        // -4/-6 hold for the API too, as for the probes.
        request?.family = families.count == 1 ? families.first : nil
        return Query(api: api, request: request, report: api.reportWithoutQuery)
    }
}
