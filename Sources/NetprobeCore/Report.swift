import Foundation

/// Where the portal wants the user to log in, and how we learned it.
public struct PortalInfo: Sendable, Equatable {
    public var url: String?
    /// redirect, meta-refresh, wispr, capport, body, dns
    public var source: String?
    /// The probe whose answer revealed the portal.
    public var probe: String?
    public var status: Int?

    public init(url: String? = nil, source: String? = nil, probe: String? = nil, status: Int? = nil) {
        self.url = url
        self.source = source
        self.probe = probe
        self.status = status
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
    /// The login URL from the strongest portal evidence: a redirect's Location,
    /// resolved against the probe URL when relative.
    public static func locate(_ evidence: [ProbeEvidence]) -> PortalInfo? {
        let portal = evidence.filter { $0.outcome == .portal }
        guard let first = portal.first else { return nil }
        for item in portal {
            guard let observation = item.observation, let location = observation.header("location"),
                  let resolved = resolve(location, against: item.spec.url) else { continue }
            return PortalInfo(url: resolved, source: "redirect", probe: item.spec.name, status: observation.status)
        }
        return PortalInfo(url: nil, source: nil, probe: first.spec.name, status: first.observation?.status)
    }

    public static func resolve(_ location: String, against base: String) -> String? {
        let trimmed = location.trimmingCharacters(in: .whitespaces)
        guard !trimmed.isEmpty, let baseURL = URL(string: base), let url = URL(string: trimmed, relativeTo: baseURL) else { return nil }
        let absolute = url.absoluteString
        guard let scheme = URL(string: absolute)?.scheme?.lowercased(), scheme == "http" || scheme == "https" else { return nil }
        return absolute
    }
}
