#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import NetprobeWire

/// Where the portal wants the user to log in, and how we learned it.
public struct PortalInfo: Sendable, Equatable {
    public var url: String?
    /// redirect, meta-refresh, wispr, capport, body, dns, announced, remembered (`NetworkMemory`), or probe (the network
    /// named no page: `url` is an intercepted probe's own URL)
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

/// One path's answer: the interface and family probed, its own conclusion and evidence.
public struct PathReport: Sendable, Equatable {
    /// The interface the probes were bound to or left through; nil when no default route exists.
    public var interface: String?
    /// The family the probes were held to; nil when the system chose (happy eyeballs).
    public var family: AddressFamily?
    /// The kernel routes the machine's ordinary traffic of its family through this path.
    public var isDefault: Bool
    public var conclusion: Conclusion
    /// Families the gate let through for this path (empty when it was down).
    public var families: [AddressFamily]
    public var probes: [ProbeEvidence]
    public var durationMs: Double
    /// The Captive Portal API (RFC 8908) of this path's interface, when one is known.
    public var capport: CapportReport?
    /// The `.invalid` canary (see `DNSCanaryReport`); nil when none was sent.
    public var canary: DNSCanaryReport?
    /// Which resolvers the answer rests on: the configured ones, or the link's own.
    public var resolvers: ResolverReport
    /// On an offline verdict, the hop where the way out broke (`FaultLocator`); nil otherwise
    /// or when the evidence does not tell.
    public var fault: FaultFinding?
    /// The DHCPINFORM sent on this path to find the API the machine did not keep; nil when none.
    public var inform: DHCPInformReport?
    /// Which network the path is on (`NetworkFinder`); nil when its gate said offline (nothing
    /// was read to learn it).
    public var network: NetworkIdentity?

    public init(interface: String?, family: AddressFamily?, isDefault: Bool, conclusion: Conclusion, families: [AddressFamily],
                probes: [ProbeEvidence], durationMs: Double, capport: CapportReport? = nil, canary: DNSCanaryReport? = nil,
                resolvers: ResolverReport = ResolverReport(), fault: FaultFinding? = nil,
                inform: DHCPInformReport? = nil) {
        self.interface = interface
        self.family = family
        self.isDefault = isDefault
        self.conclusion = conclusion
        self.families = families
        self.probes = probes
        self.durationMs = durationMs
        self.capport = capport
        self.canary = canary
        self.resolvers = resolvers
        self.fault = fault
        self.inform = inform
    }
}

/// Everything one check found: the overall verdict, every path probed and the evidence behind them.
/// The overall answer is one of the paths' (`overall`), never a separate judgement.
public struct Report: Sendable, Equatable {
    public static let schemaVersion = 1

    public var paths: [PathReport]
    /// Index into `paths` of the path whose answer is the machine's.
    public var overall: Int
    public var durationMs: Double
    public var timestamp: Date
    public var path: PathSnapshot
    /// What the check put on the wire below HTTP (`bytesMoved` is the HTTP-level figure).
    public var wire = WireBytes()
    /// A lean re-check (`LeanRecheck`): two operators confirmed what full checks proved on this
    /// network; the other probes were not sent.
    public var lean = false

    public init(paths: [PathReport], overall: Int, durationMs: Double, timestamp: Date, path: PathSnapshot) {
        precondition(paths.indices.contains(overall), "the overall answer is one of the paths")
        self.paths = paths
        self.overall = overall
        self.durationMs = durationMs
        self.timestamp = timestamp
        self.path = path
    }

    public var answer: PathReport { paths[overall] }
    public var conclusion: Conclusion { answer.conclusion }
    public var verdict: Verdict { conclusion.verdict }
    public var reason: Reason { conclusion.reason }
    public var portal: PortalInfo? { conclusion.portal }
    public var partial: Bool? { conclusion.partial }
    public var partialError: String? { conclusion.partialError }
    public var quorumRequired: Int { conclusion.quorum }
    public var successOperators: Int { conclusion.successOperators }
    public var portalOperators: Int { conclusion.portalOperators }
    /// A transparent proxy was seen (`NetworkInsights.proxy`).
    public var proxy: Bool { conclusion.proxy }
    /// A probe host name led to a private, loopback, link-local, CGNAT, ULA or unspecified address.
    public var dnsHijack: Bool { conclusion.dnsHijack }
    public var families: [AddressFamily] { answer.families }
    public var probes: [ProbeEvidence] { answer.probes }
    public var capport: CapportReport? { answer.capport }
    public var dnsCanary: DNSCanaryReport? { answer.canary }
    public var resolvers: ResolverReport { answer.resolvers }
    public var fault: FaultFinding? { answer.fault }
    public var inform: DHCPInformReport? { answer.inform }
    public var network: NetworkIdentity? { answer.network }

    /// The explicit proxies the overall answer's probes went through (redacted), in probe order.
    public var proxiesUsed: [String] {
        var seen: [String] = []
        for probe in probes {
            if let proxy = probe.observation?.proxy, !seen.contains(proxy) { seen.append(proxy) }
        }
        return seen
    }

    /// The process's exit status for this verdict (0 online, 1 offline, 2 portal): what scripts test.
    public var exitCode: Int32 { verdict.exitCode }
}
