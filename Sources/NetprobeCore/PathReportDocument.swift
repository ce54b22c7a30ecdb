/// One element of the report's `paths` array (schemas/report.schema.json `$defs/path`).
enum PathReportDocument {
    static func json(_ path: PathReport) -> JSONOut {
        .object([
            "interface": .string(path.interface),
            "family": .string(path.family?.rawValue),
            "default": .bool(path.isDefault),
            "verdict": .string(path.conclusion.verdict.rawValue),
            "reason": .string(path.conclusion.reason.rawValue),
            "portal": path.conclusion.portal.map(PortalDocument.json) ?? .null,
            "partial": .bool(path.conclusion.partial),
            "probes": .array(path.probes.map(ProbeDocument.json)),
            "duration_ms": .number(Rounding.ms(path.durationMs)),
        ])
    }
}
