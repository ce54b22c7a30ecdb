#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// One element of the report's `paths` array (schemas/report.schema.json `$defs/path`).
struct PathReportDocument: Encodable {
    var path: PathReport
    init(_ path: PathReport) { self.path = path }

    enum CodingKeys: String, CodingKey {
        case interface, family, verdict, reason, portal, partial, probes
        case isDefault = "default"
        case durationMs = "duration_ms"
    }

    func encode(to encoder: Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(path.interface, forKey: .interface)
        try container.encode(path.family, forKey: .family)
        try container.encode(path.isDefault, forKey: .isDefault)
        try container.encode(path.conclusion.verdict, forKey: .verdict)
        try container.encode(path.conclusion.reason.rawValue, forKey: .reason)
        try container.encode(path.conclusion.portal.map(PortalDocument.init), forKey: .portal)
        try container.encode(path.conclusion.partial, forKey: .partial)
        try container.encode(path.probes.map(ProbeDocument.init), forKey: .probes)
        try container.encode(Rounding.ms(path.durationMs), forKey: .durationMs)
    }
}
