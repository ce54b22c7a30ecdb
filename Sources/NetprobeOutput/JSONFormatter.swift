#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import NetprobeWire
import NetprobeVerdict

/// `--format json`: one object, every key always present (null when unknown) so consumers
/// can rely on its shape, described in schemas/report.schema.json.
public enum JSONFormatter {
    public static func format(_ report: Report, pretty: Bool = false) -> String {
        ReportDocument.json(report).rendered(pretty: pretty)
    }

    /// The report stamped `timestamp` instead of its check's start (watch's `alive` and `stop`
    /// records: the state as of the moment they are written). Only the top-level key moves:
    /// `expires_at` stays where the check that asked the portal put it.
    public static func format(_ report: Report, timestamp: Date) -> String {
        ReportDocument.json(report, timestamp: timestamp).rendered(pretty: false)
    }

    public static func format(_ snapshot: PathSnapshot, pretty: Bool = false) -> String {
        PathDocument.json(snapshot).rendered(pretty: pretty)
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
            "nat64": NAT64Document.json(path.nat64),
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
            "dynamic": .bool(address.dynamic),
            "family": .string(address.family.rawValue),
            "prefix_length": .int(address.prefixLength),
            "scope": .string(address.scope.rawValue),
            "valid_lifetime_s": .int(address.validLifetime.map { Int($0) }),
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
    static func json(_ route: RouteAnswer) -> JSONOut {
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

enum NAT64Document {
    static func json(_ nat64: NAT64Prefix?) -> JSONOut {
        guard let nat64 else { return .null }
        return .object(["prefix": .string(nat64.prefix), "resolver": .string(nat64.resolver)])
    }
}

enum DNSDocument {
    static func json(_ dns: DNSConfiguration) -> JSONOut {
        .object([
            "local_stub": .bool(dns.localStub),
            "search_domains": .strings(dns.searchDomains),
            "servers": .strings(dns.servers),
            "source": .string(dns.source),
            "upstreams": .strings(dns.upstreams),
            "upstreams_source": .string(dns.upstreamsSource),
            "upstreams_transport": .string(dns.upstreamsTransport),
        ])
    }

    /// A check's `dns`: the configured resolvers, the link's, and which the verdict rests on.
    static func json(_ dns: DNSConfiguration, resolvers: ResolverReport) -> JSONOut {
        .object([
            "configured": .strings(dns.servers),
            "configured_retried": .bool(resolvers.configuredRetried),
            "lease_errors": .strings(resolvers.leaseErrors.map(NetworkText.jsonValue)),
            "link": .strings(resolvers.link),
            "link_asked": .bool(resolvers.linkAsked),
            "link_error": .string(NetworkText.jsonValue(resolvers.linkError)),
            "link_interface": .string(resolvers.linkInterface),
            "link_server": .string(resolvers.linkServer),
            "link_source": .string(resolvers.linkSource),
            "local_stub": .bool(dns.localStub),
            "search_domains": .strings(dns.searchDomains),
            "servers": .strings(dns.servers),
            "source": .string(dns.source),
            "upstreams": .strings(dns.upstreams),
            "upstreams_source": .string(dns.upstreamsSource),
            "upstreams_transport": .string(dns.upstreamsTransport),
            "used": .string(resolvers.used.rawValue),
        ])
    }
}

enum ReportDocument {
    /// What the check put on the wire below HTTP: totals, then TCP payload and own DNS apart.
    static func wire(_ wire: WireBytes) -> JSONOut {
        .object(["sent": .int(wire.sent), "received": .int(wire.received),
                 "tcp_sent": .int(wire.tcpSent), "tcp_received": .int(wire.tcpReceived),
                 "dns_sent": .int(wire.dnsSent), "dns_received": .int(wire.dnsReceived)])
    }

    static func json(_ report: Report, timestamp: Date? = nil) -> JSONOut {
        .object([
            "bytes": .object(["received": .int(report.bytesMoved.received), "sent": .int(report.bytesMoved.sent),
                              "wire": wire(report.wire)]),
            "capport": report.capport.map(CapportDocument.json) ?? .null,
            "default_routes": .array(report.path.defaultRoutes.map(RouteDocument.json)),
            "dhcp_inform": DHCPInformDocument.json(report.inform),
            "dns": DNSDocument.json(report.path.dns, resolvers: report.resolvers),
            "dns_canary": report.dnsCanary.map(CanaryDocument.json) ?? .null,
            "dns_hijack": .bool(report.dnsHijack),
            "duration_ms": .number(Rounding.ms(report.durationMs)),
            "families": .array(report.families.map { .string($0.rawValue) }),
            "fault": .string(report.fault?.fault.rawValue),
            "fault_detail": .string(report.fault?.detail),
            "interfaces": .array(report.path.interfaces.map(InterfaceDocument.json)),
            "kernel_routes": .array(report.path.kernelRoutes.map(RouteDocument.json)),
            "lean": .bool(report.lean),
            "nat64": NAT64Document.json(report.path.nat64),
            "network": NetworkDocument.json(report.network),
            "partial": .bool(report.partial),
            "partial_error": .string(NetworkText.jsonValue(report.partialError)),
            "paths": .array(report.paths.map { PathReportDocument.json($0, started: report.timestamp) }),
            "portal": PortalDocument.json(report.portal, sessionEnd: report.portalSessionEnd),
            "probes": .array(report.probes.map(ProbeDocument.json)),
            "proxy": .bool(report.proxy),
            "quorum": .object([
                "portal": .int(report.portalOperators),
                "required": .int(report.quorumRequired),
                "success": .int(report.successOperators),
            ]),
            "reason": .string(report.reason.rawValue),
            "schema_version": .int(Report.schemaVersion),
            "timestamp": .string(Timestamp.iso8601(timestamp ?? report.timestamp)),
            "verdict": .string(report.verdict.rawValue),
        ])
    }
}

enum Rounding {
    /// Milliseconds to 0.1 ms: finer digits are noise and make diffs unreadable.
    static func ms(_ value: Double) -> Double { (value * 10).rounded() / 10 }
    static func ms(_ value: Double?) -> Double? { value.map { ms($0) } }
}
