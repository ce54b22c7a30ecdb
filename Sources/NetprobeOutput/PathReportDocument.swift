#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import NetprobeWire
import NetprobeVerdict

/// One element of the report's `paths` array (schemas/report.schema.json `$defs/path`).
enum PathReportDocument {
    static func json(_ path: PathReport, started: Date) -> JSONOut {
        .object([
            "default": .bool(path.isDefault),
            "duration_ms": .number(Rounding.ms(path.durationMs)),
            "family": .string(path.family?.rawValue),
            "fault": .string(path.fault?.fault.rawValue),
            "fault_detail": .string(path.fault?.detail),
            "interface": .string(path.interface),
            "partial": .bool(path.conclusion.partial),
            "portal": PortalDocument.json(path.conclusion.portal, sessionEnd: path.sessionEnd(from: started)),
            "probes": .array(path.probes.map(ProbeDocument.json)),
            "reason": .string(path.conclusion.reason.rawValue),
            "verdict": .string(path.conclusion.verdict.rawValue),
        ])
    }
}
