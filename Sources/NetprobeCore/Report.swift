#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Where the portal wants the user to log in, and how we learned it.
public struct PortalInfo: Sendable, Equatable {
    public var url: String?
    /// redirect, meta-refresh, wispr, capport, body, dns
    public var source: String?
    /// The probe whose answer gave `url` (with no url, the first that showed the portal);
    /// nil when the Captive Portal API gave it.
    public var probe: String?
    public var status: Int?
    /// The WISPr LoginURL, resolved against the probe URL (the page a WISPr client would post to).
    public var loginURL: String?
    /// The venue's name, from WISPr LocationName.
    public var locationName: String?
    /// Everything the page's WISPr XML said, when it had any.
    public var wispr: WISPrInfo?

    public init(url: String? = nil, source: String? = nil, probe: String? = nil, status: Int? = nil,
                loginURL: String? = nil, locationName: String? = nil, wispr: WISPrInfo? = nil) {
        self.url = url
        self.source = source
        self.probe = probe
        self.status = status
        self.loginURL = loginURL
        self.locationName = locationName
        self.wispr = wispr
    }
}

/// Everything one check found: the verdict and the evidence behind it.
public struct Report: Sendable, Equatable {
    public static let schemaVersion = 1

    public var verdict: Verdict
    public var reason: String
    public var portal: PortalInfo?
    public var partial: Bool?
    public var durationMs: Double
    public var timestamp: Date
    public var quorumRequired: Int
    public var successOperators: Int
    public var portalOperators: Int
    public var families: [AddressFamily]
    public var path: PathSnapshot
    public var probes: [ProbeEvidence]
    /// The Captive Portal API (RFC 8908) when one is known: null in JSON otherwise.
    public var capport: CapportReport?
    /// Correct answers came through a transparent proxy (see `NetworkInsights.proxy`).
    public var proxy = false
    /// When `partial` is true: which HTTPS probe failed and how.
    public var partialError: String?
    /// A probe host name led to a private, loopback, link-local, CGNAT, ULA or unspecified address.
    public var dnsHijack = false
    /// The `.invalid` canary (see `DNSCanaryReport`); nil when none was sent.
    public var dnsCanary: DNSCanaryReport?

    public init(verdict: Verdict, reason: String, portal: PortalInfo?, partial: Bool?, durationMs: Double, timestamp: Date,
                quorumRequired: Int, successOperators: Int, portalOperators: Int, families: [AddressFamily],
                path: PathSnapshot, probes: [ProbeEvidence]) {
        self.verdict = verdict
        self.reason = reason
        self.portal = portal
        self.partial = partial
        self.durationMs = durationMs
        self.timestamp = timestamp
        self.quorumRequired = quorumRequired
        self.successOperators = successOperators
        self.portalOperators = portalOperators
        self.families = families
        self.path = path
        self.probes = probes
    }

    /// Exit status per CONTRACT.md.
    public var exitCode: Int32 {
        switch verdict {
        case .online: return 0
        case .offline: return 1
        case .portal: return 2
        }
    }
}

public enum PortalLocator {
    /// Where to log in, from the probes alone (no Captive Portal API); the precedence
    /// of the sources is documented at `locate(_:capport:)`.
    public static func locate(_ evidence: [ProbeEvidence]) -> PortalInfo? {
        locate(evidence, capport: nil)
    }

    public static func resolve(_ location: String, against base: String) -> String? {
        let trimmed = location.trimmingWhitespaces()
        guard !trimmed.isEmpty, let baseURL = URL(string: base), let url = URL(string: trimmed, relativeTo: baseURL) else { return nil }
        let absolute = url.absoluteString
        // "http:", "http:///x" and the like resolve to URLs with no host: nothing a person could open.
        guard URLRules.httpHost(absolute) != nil else { return nil }
        return absolute
    }
}
