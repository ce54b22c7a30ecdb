#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// `--format json`: one object per CONTRACT.md, every key always present (null when unknown),
/// described in schemas/report.schema.json.
public enum JSONFormatter {
    public static func format(_ report: Report, pretty: Bool = false) -> String {
        encode(ReportDocument(report), pretty: pretty)
    }

    public static func format(_ snapshot: PathSnapshot, pretty: Bool = false) -> String {
        encode(PathDocument(path: snapshot), pretty: pretty)
    }

    static func encode<T: Encodable>(_ value: T, pretty: Bool) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = pretty ? [.sortedKeys, .withoutEscapingSlashes, .prettyPrinted] : [.sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .custom { date, encoder in
            var container = encoder.singleValueContainer()
            try container.encode(Timestamp.iso8601(date))
        }
        do {
            return String(decoding: try encoder.encode(value), as: UTF8.self)
        } catch {
            // Every value here is a plain string, number or bool: encoding cannot fail short of a bug.
            preconditionFailure("JSON encoding failed: \(error)")
        }
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

struct PathDocument: Encodable {
    var path: PathSnapshot

    enum CodingKeys: String, CodingKey {
        case schemaVersion = "schema_version"
        case interfaces
        case defaultRoutes = "default_routes"
        case dns
    }

    func encode(to encoder: Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(Report.schemaVersion, forKey: .schemaVersion)
        try container.encode(path.interfaces.map(InterfaceDocument.init), forKey: .interfaces)
        try container.encode(path.defaultRoutes.map(RouteDocument.init), forKey: .defaultRoutes)
        try container.encode(path.dns, forKey: .dns)
    }
}

/// Writes every optional key, as null when absent, so consumers can rely on the shape.
struct InterfaceDocument: Encodable {
    var link: NetworkInterface
    init(_ link: NetworkInterface) { self.link = link }

    func encode(to encoder: Encoder) throws {
        var container = encoder.container(keyedBy: NetworkInterface.CodingKeys.self)
        try container.encode(link.name, forKey: .name)
        try container.encode(link.index, forKey: .index)
        try container.encode(link.type, forKey: .type)
        try container.encode(link.kind, forKey: .kind)
        try container.encode(link.up, forKey: .up)
        try container.encode(link.carrier, forKey: .carrier)
        try container.encode(link.operstate, forKey: .operstate)
        try container.encode(link.mtu, forKey: .mtu)
        try container.encode(link.hardwareAddress, forKey: .hardwareAddress)
        try container.encode(link.expensive, forKey: .expensive)
        try container.encode(link.addresses, forKey: .addresses)
    }
}

struct RouteDocument: Encodable {
    var route: DefaultRoute
    init(_ route: DefaultRoute) { self.route = route }

    func encode(to encoder: Encoder) throws {
        var container = encoder.container(keyedBy: DefaultRoute.CodingKeys.self)
        try container.encode(route.family, forKey: .family)
        try container.encode(route.gateway, forKey: .gateway)
        try container.encode(route.interface, forKey: .interface)
        try container.encode(route.interfaceIndex, forKey: .interfaceIndex)
        try container.encode(route.metric, forKey: .metric)
        try container.encode(route.table, forKey: .table)
    }
}

struct ReportDocument: Encodable {
    var report: Report
    init(_ report: Report) { self.report = report }

    enum CodingKeys: String, CodingKey {
        case schemaVersion = "schema_version"
        case verdict, reason, portal, partial, timestamp, quorum, families, interfaces, dns, probes, paths, capport, proxy
        case durationMs = "duration_ms"
        case partialError = "partial_error"
        case dnsHijack = "dns_hijack"
        case dnsCanary = "dns_canary"
        case defaultRoutes = "default_routes"
    }

    enum QuorumKeys: String, CodingKey { case required, success, portal }

    func encode(to encoder: Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(Report.schemaVersion, forKey: .schemaVersion)
        try container.encode(report.verdict, forKey: .verdict)
        try container.encode(report.reason.rawValue, forKey: .reason)
        try container.encode(report.portal.map(PortalDocument.init), forKey: .portal)
        try container.encode(report.partial, forKey: .partial)
        try container.encode(NetworkText.jsonValue(report.partialError), forKey: .partialError)
        try container.encode(report.proxy, forKey: .proxy)
        try container.encode(report.dnsHijack, forKey: .dnsHijack)
        try container.encode(report.dnsCanary.map(CanaryDocument.init), forKey: .dnsCanary)
        try container.encode(report.capport.map(CapportDocument.init), forKey: .capport)
        try container.encode(Rounding.ms(report.durationMs), forKey: .durationMs)
        try container.encode(Timestamp.iso8601(report.timestamp), forKey: .timestamp)
        var quorum = container.nestedContainer(keyedBy: QuorumKeys.self, forKey: .quorum)
        try quorum.encode(report.quorumRequired, forKey: .required)
        try quorum.encode(report.successOperators, forKey: .success)
        try quorum.encode(report.portalOperators, forKey: .portal)
        try container.encode(report.families, forKey: .families)
        try container.encode(report.path.interfaces.map(InterfaceDocument.init), forKey: .interfaces)
        try container.encode(report.path.defaultRoutes.map(RouteDocument.init), forKey: .defaultRoutes)
        try container.encode(report.path.dns, forKey: .dns)
        try container.encode(report.probes.map(ProbeDocument.init), forKey: .probes)
        try container.encode(report.paths.map(PathReportDocument.init), forKey: .paths)
    }
}

enum Rounding {
    /// Milliseconds to 0.1 ms: finer digits are noise and make diffs unreadable.
    static func ms(_ value: Double) -> Double { (value * 10).rounded() / 10 }
    static func ms(_ value: Double?) -> Double? { value.map { ms($0) } }
}
