#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// `--format json`: one object per CONTRACT.md, every key always present (null when unknown),
/// described in schemas/report.schema.json.
public enum JSONFormatter {
    public static func format(_ report: Report, pretty: Bool = false) -> String {
        ReportDocument.json(report).rendered(pretty: pretty)
    }

    public static func format(_ snapshot: PathSnapshot, pretty: Bool = false) -> String {
        PathDocument.json(snapshot).rendered(pretty: pretty)
    }
}

/// RFC 3339 UTC timestamps, formatted by hand: Foundation's ISO8601DateFormatter loads
/// ICU's data on first use, which cost every run about 4 MB of memory and 10 ms.
public enum Timestamp {
    public static func iso8601(_ date: Date, fractional: Bool = true) -> String {
        let millisSinceEpoch = Int64((date.timeIntervalSince1970 * 1000).rounded(.down))
        let (days, millisOfDay) = millisSinceEpoch.floorDivided(by: 86_400_000)
        let (year, month, day) = civil(fromDays: days)
        let seconds = millisOfDay / 1000
        var text = "\(pad(year, 4))-\(pad(month, 2))-\(pad(day, 2))"
            + "T\(pad(seconds / 3600, 2)):\(pad(seconds / 60 % 60, 2)):\(pad(seconds % 60, 2))"
        if fractional { text += "." + pad(millisOfDay % 1000, 3) }
        return text + "Z"
    }

    /// Days since 1970-01-01 to a proleptic Gregorian date (Howard Hinnant's civil_from_days).
    static func civil(fromDays days: Int64) -> (year: Int64, month: Int64, day: Int64) {
        let shifted = days + 719_468
        let era = (shifted >= 0 ? shifted : shifted - 146_096) / 146_097
        let dayOfEra = shifted - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthIndex = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * monthIndex + 2) / 5 + 1
        let month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }

    private static func pad(_ value: Int64, _ width: Int) -> String {
        let digits = String(value)
        return String(repeating: "0", count: max(0, width - digits.count)) + digits
    }
}

extension Int64 {
    /// Quotient rounded toward minus infinity and a non-negative remainder (dates before 1970 too).
    fileprivate func floorDivided(by divisor: Int64) -> (Int64, Int64) {
        let remainder = ((self % divisor) + divisor) % divisor
        return ((self - remainder) / divisor, remainder)
    }
}

/// `netprobe path --json`.
enum PathDocument {
    static func json(_ path: PathSnapshot) -> JSONOut {
        .object([
            "default_routes": .array(path.defaultRoutes.map(RouteDocument.json)),
            "dns": DNSDocument.json(path.dns),
            "interfaces": .array(path.interfaces.map(InterfaceDocument.json)),
            "kernel_routes": .array(path.kernelRoutes.map(RouteDocument.json)),
            "schema_version": .int(Report.schemaVersion),
        ])
    }
}

/// Writes every optional key, as null when absent, so consumers can rely on the shape.
enum InterfaceDocument {
    static func json(_ link: NetworkInterface) -> JSONOut {
        .object([
            "addresses": .array(link.addresses.map(address)),
            "carrier": .bool(link.carrier),
            "expensive": .bool(link.expensive),
            "hardware_address": .string(link.hardwareAddress),
            "index": .int(link.index),
            "kind": .string(link.kind),
            "mtu": .int(link.mtu),
            "name": .string(link.name),
            "operstate": .string(link.operstate),
            "type": .string(link.type.rawValue),
            "up": .bool(link.up),
        ])
    }

    static func address(_ address: InterfaceAddress) -> JSONOut {
        .object([
            "address": .string(address.address),
            "family": .string(address.family.rawValue),
            "prefix_length": .int(address.prefixLength),
            "scope": .string(address.scope.rawValue),
        ])
    }
}

enum RouteDocument {
    static func json(_ route: DefaultRoute) -> JSONOut {
        .object([
            "family": .string(route.family.rawValue),
            "gateway": .string(route.gateway),
            "interface": .string(route.interface),
            "interface_index": .int(route.interfaceIndex),
            "metric": .int(route.metric),
            "table": .int(route.table),
        ])
    }
}

extension RouteDocument {
    static func json(_ route: KernelRoute) -> JSONOut {
        .object([
            "destination": .string(route.destination),
            "family": .string(route.family.rawValue),
            "gateway": .string(route.gateway),
            "interface": .string(route.interface),
            "interface_index": .int(route.interfaceIndex),
            "refusal": .string(route.refusal?.rawValue),
            "source": .string(route.source),
            "table": .int(route.table),
        ])
    }
}

enum DNSDocument {
    static func json(_ dns: DNSConfiguration) -> JSONOut {
        .object([
            "local_stub": .bool(dns.localStub),
            "search_domains": .strings(dns.searchDomains),
            "servers": .strings(dns.servers),
            "source": .string(dns.source),
        ])
    }
}

enum ReportDocument {
    static func json(_ report: Report) -> JSONOut {
        .object([
            "capport": report.capport.map(CapportDocument.json) ?? .null,
            "default_routes": .array(report.path.defaultRoutes.map(RouteDocument.json)),
            "dns": DNSDocument.json(report.path.dns),
            "dns_canary": report.dnsCanary.map(CanaryDocument.json) ?? .null,
            "dns_hijack": .bool(report.dnsHijack),
            "duration_ms": .number(Rounding.ms(report.durationMs)),
            "families": .array(report.families.map { .string($0.rawValue) }),
            "interfaces": .array(report.path.interfaces.map(InterfaceDocument.json)),
            "kernel_routes": .array(report.path.kernelRoutes.map(RouteDocument.json)),
            "partial": .bool(report.partial),
            "partial_error": .string(NetworkText.jsonValue(report.partialError)),
            "paths": .array(report.paths.map(PathReportDocument.json)),
            "portal": report.portal.map(PortalDocument.json) ?? .null,
            "probes": .array(report.probes.map(ProbeDocument.json)),
            "proxy": .bool(report.proxy),
            "quorum": .object([
                "portal": .int(report.portalOperators),
                "required": .int(report.quorumRequired),
                "success": .int(report.successOperators),
            ]),
            "reason": .string(report.reason.rawValue),
            "schema_version": .int(Report.schemaVersion),
            "timestamp": .string(Timestamp.iso8601(report.timestamp)),
            "verdict": .string(report.verdict.rawValue),
        ])
    }
}

enum Rounding {
    /// Milliseconds to 0.1 ms: finer digits are noise and make diffs unreadable.
    static func ms(_ value: Double) -> Double { (value * 10).rounded() / 10 }
    static func ms(_ value: Double?) -> Double? { value.map { ms($0) } }
}
