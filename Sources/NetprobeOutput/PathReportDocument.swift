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
            "network": NetworkDocument.json(path.network),
            "partial": .bool(path.conclusion.partial),
            "portal": PortalDocument.json(path.conclusion.portal, sessionEnd: path.sessionEnd(from: started)),
            "probes": .array(path.probes.map(ProbeDocument.json)),
            "reason": .string(path.conclusion.reason.rawValue),
            "verdict": .string(path.conclusion.verdict.rawValue),
        ])
    }
}

/// `network`: which network a path is on. Always an object, every part null when unknown (a
/// path whose gate said offline learns none).
enum NetworkDocument {
    static func json(_ network: NetworkIdentity?) -> JSONOut {
        .object([
            "dhcp_server": .string(network?.dhcpServer),
            "domain": .string(network?.domain),
            "gateway_mac": .string(network?.gatewayMAC),
            "id": .string(network?.id),
            "ssid": .string(network?.ssid),
        ])
    }
}
