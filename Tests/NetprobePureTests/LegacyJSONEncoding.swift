import Foundation
@testable import NetprobeWire
@testable import NetprobeVerdict
@testable import NetprobeOutput
@testable import NetprobeReport
@testable import NetprobeSystem
@testable import NetprobeNetwork
@testable import NetprobeCheck
@testable import NetprobeWatch

// The JSONEncoder path that JSONWriter replaced to save instructions, kept verbatim but for the names:
// JSONWriterIdentityTests renders every fixture through both and requires the same bytes.

enum LegacyJSONFormatter {
    static func format(_ report: Report, pretty: Bool = false) -> String {
        encode(LegacyReportDocument(report), pretty: pretty)
    }

    static func format(_ snapshot: PathSnapshot, pretty: Bool = false) -> String {
        encode(LegacyPathDocument(path: snapshot), pretty: pretty)
    }

    /// What WatchRecord's extra keys used (a default JSONEncoder).
    static func encodeDefault(_ value: some Encodable) -> String {
        (try? JSONEncoder().encode(value)).map { String(decoding: $0, as: UTF8.self) } ?? "null"
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

struct LegacyPathDocument: Encodable {
    var path: PathSnapshot

    enum CodingKeys: String, CodingKey {
        case schemaVersion = "schema_version"
        case interfaces
        case defaultRoutes = "default_routes"
        case kernelRoutes = "kernel_routes"
        case nat64
        case dns
    }

    func encode(to encoder: Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(Report.schemaVersion, forKey: .schemaVersion)
        try container.encode(path.interfaces.map(LegacyInterfaceDocument.init), forKey: .interfaces)
        try container.encode(path.defaultRoutes.map(LegacyRouteDocument.init), forKey: .defaultRoutes)
        try container.encode(path.kernelRoutes.map(LegacyKernelRouteDocument.init), forKey: .kernelRoutes)
        try container.encode(path.nat64, forKey: .nat64)
        try container.encode(LegacyPathDNSDocument(dns: path.dns), forKey: .dns)
    }
}

/// Writes every optional key, as null when absent, so consumers can rely on the shape.
struct LegacyInterfaceDocument: Encodable {
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

struct LegacyRouteDocument: Encodable {
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

struct LegacyKernelRouteDocument: Encodable {
    var route: KernelRoute
    init(_ route: KernelRoute) { self.route = route }

    func encode(to encoder: Encoder) throws {
        var container = encoder.container(keyedBy: KernelRoute.CodingKeys.self)
        try container.encode(route.family, forKey: .family)
        try container.encode(route.destination, forKey: .destination)
        try container.encode(route.interface, forKey: .interface)
        try container.encode(route.interfaceIndex, forKey: .interfaceIndex)
        try container.encode(route.gateway, forKey: .gateway)
        try container.encode(route.source, forKey: .source)
        try container.encode(route.table, forKey: .table)
        try container.encode(route.refusal, forKey: .refusal)
    }
}

struct LegacyReportDocument: Encodable {
    var report: Report
    init(_ report: Report) { self.report = report }

    enum CodingKeys: String, CodingKey {
        case schemaVersion = "schema_version"
        case verdict, reason, portal, partial, timestamp, quorum, families, interfaces, dns, probes, paths, capport, proxy, bytes
        case durationMs = "duration_ms"
        case partialError = "partial_error"
        case dnsHijack = "dns_hijack"
        case dnsCanary = "dns_canary"
        case defaultRoutes = "default_routes"
        case kernelRoutes = "kernel_routes"
        case nat64
    }

    enum QuorumKeys: String, CodingKey { case required, success, portal }
    enum BytesKeys: String, CodingKey { case sent, received }

    func encode(to encoder: Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(Report.schemaVersion, forKey: .schemaVersion)
        try container.encode(report.verdict, forKey: .verdict)
        try container.encode(report.reason.rawValue, forKey: .reason)
        try container.encode(LegacyPortalDocument.make(report.portal, sessionEnd: report.portalSessionEnd), forKey: .portal)
        var bytes = container.nestedContainer(keyedBy: BytesKeys.self, forKey: .bytes)
        try bytes.encode(report.bytesMoved.sent, forKey: .sent)
        try bytes.encode(report.bytesMoved.received, forKey: .received)
        try container.encode(report.partial, forKey: .partial)
        try container.encode(NetworkText.jsonValue(report.partialError), forKey: .partialError)
        try container.encode(report.proxy, forKey: .proxy)
        try container.encode(report.dnsHijack, forKey: .dnsHijack)
        try container.encode(report.dnsCanary.map(LegacyCanaryDocument.init), forKey: .dnsCanary)
        try container.encode(report.capport.map(LegacyCapportDocument.init), forKey: .capport)
        try container.encode(Rounding.ms(report.durationMs), forKey: .durationMs)
        try container.encode(Timestamp.iso8601(report.timestamp), forKey: .timestamp)
        var quorum = container.nestedContainer(keyedBy: QuorumKeys.self, forKey: .quorum)
        try quorum.encode(report.quorumRequired, forKey: .required)
        try quorum.encode(report.successOperators, forKey: .success)
        try quorum.encode(report.portalOperators, forKey: .portal)
        try container.encode(report.families, forKey: .families)
        try container.encode(report.path.interfaces.map(LegacyInterfaceDocument.init), forKey: .interfaces)
        try container.encode(report.path.defaultRoutes.map(LegacyRouteDocument.init), forKey: .defaultRoutes)
        try container.encode(report.path.kernelRoutes.map(LegacyKernelRouteDocument.init), forKey: .kernelRoutes)
        try container.encode(report.path.nat64, forKey: .nat64)
        try container.encode(LegacyCheckDNSDocument(dns: report.path.dns, resolvers: report.resolvers), forKey: .dns)
        try container.encode(report.probes.map(LegacyProbeDocument.init), forKey: .probes)
        try container.encode(report.paths.map { LegacyPathReportDocument($0, started: report.timestamp) }, forKey: .paths)
    }
}

struct LegacyPathReportDocument: Encodable {
    var path: PathReport
    var started: Date
    init(_ path: PathReport, started: Date) {
        self.path = path
        self.started = started
    }

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
        try container.encode(LegacyPortalDocument.make(path.conclusion.portal, sessionEnd: path.sessionEnd(from: started)), forKey: .portal)
        try container.encode(path.conclusion.partial, forKey: .partial)
        try container.encode(path.probes.map(LegacyProbeDocument.init), forKey: .probes)
        try container.encode(Rounding.ms(path.durationMs), forKey: .durationMs)
    }
}

struct LegacyProbeDocument: Encodable {
    var evidence: ProbeEvidence
    init(_ evidence: ProbeEvidence) { self.evidence = evidence }

    enum CodingKeys: String, CodingKey {
        case name, url, outcome, status, headers, timings, error
        case operatorName = "operator"
        case errorClass = "error_class"
        case bodyMatched = "body_matched"
        case bodyBytes = "body_bytes"
        case bytesSent = "bytes_sent"
        case bytesReceived = "bytes_received"
        case bodyTruncated = "body_truncated"
        case remoteAddress = "remote_address"
        case resolver, interface
        case skipReason = "skip_reason"
        case durationMs = "duration_ms"
        case dnsHijack = "dns_hijack"
        case proxy
        case proxyAuthRealm = "proxy_auth_realm"
    }

    enum HeaderKeys: String, CodingKey {
        case location, via
        case contentType = "content_type"
        case contentLength = "content_length"
    }

    enum TimingKeys: String, CodingKey {
        case dnsMs = "dns_ms"
        case connectMs = "connect_ms"
        case tlsMs = "tls_ms"
        case firstByteMs = "first_byte_ms"
        case totalMs = "total_ms"
    }

    /// Header values, error texts and names may carry what a server sent: controls filtered (`NetworkText`).
    func encode(to encoder: Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        let observation = evidence.observation
        try container.encode(NetworkText.jsonValue(evidence.spec.name), forKey: .name)
        try container.encode(NetworkText.jsonValue(evidence.spec.url), forKey: .url)
        try container.encode(NetworkText.jsonValue(evidence.spec.operatorName), forKey: .operatorName)
        try container.encode(evidence.outcome, forKey: .outcome)
        try container.encode(evidence.errorClass, forKey: .errorClass)
        try container.encode(evidence.skipReason, forKey: .skipReason)
        try container.encode(observation?.status, forKey: .status)
        try container.encode(evidence.bodyMatched, forKey: .bodyMatched)
        try container.encode(observation.map { $0.body.count }, forKey: .bodyBytes)
        try container.encode(observation?.bytesSent, forKey: .bytesSent)
        try container.encode(observation?.bytesReceived, forKey: .bytesReceived)
        try container.encode(observation.map(\.bodyTruncated), forKey: .bodyTruncated)
        try container.encode(observation?.remoteAddress, forKey: .remoteAddress)
        try container.encode(NetworkText.jsonValue(observation?.interface), forKey: .interface)
        try container.encode(observation?.resolver, forKey: .resolver)
        try container.encode(Classifier.dnsHijack(evidence), forKey: .dnsHijack)
        try container.encode(observation.map { Rounding.ms($0.timings.totalMs) }, forKey: .durationMs)
        let error = observation?.transportError.flatMap { $0.kind == .cancelled ? nil : $0.message }
        try container.encode(NetworkText.jsonValue(error), forKey: .error)
        try container.encode(observation?.proxy, forKey: .proxy)
        try container.encode(NetworkText.jsonValue(observation?.proxyAuthRealm), forKey: .proxyAuthRealm)
        if let observation {
            var headers = container.nestedContainer(keyedBy: HeaderKeys.self, forKey: .headers)
            try headers.encode(NetworkText.jsonValue(observation.header("location")), forKey: .location)
            try headers.encode(NetworkText.jsonValue(observation.header("content-type")), forKey: .contentType)
            try headers.encode(NetworkText.jsonValue(observation.header("content-length")), forKey: .contentLength)
            try headers.encode(NetworkText.jsonValue(observation.header("via")), forKey: .via)
            var timings = container.nestedContainer(keyedBy: TimingKeys.self, forKey: .timings)
            try timings.encode(Rounding.ms(observation.timings.dnsMs), forKey: .dnsMs)
            try timings.encode(Rounding.ms(observation.timings.connectMs), forKey: .connectMs)
            try timings.encode(Rounding.ms(observation.timings.tlsMs), forKey: .tlsMs)
            try timings.encode(Rounding.ms(observation.timings.firstByteMs), forKey: .firstByteMs)
            try timings.encode(Rounding.ms(observation.timings.totalMs), forKey: .totalMs)
        } else {
            try container.encodeNil(forKey: .headers)
            try container.encodeNil(forKey: .timings)
        }
    }
}

struct LegacyWISPrDocument: Encodable {
    var info: WISPrInfo
    init(_ info: WISPrInfo) { self.info = info }

    enum CodingKeys: String, CodingKey {
        case messageType = "message_type"
        case responseCode = "response_code"
        case loginURL = "login_url"
        case abortLoginURL = "abort_login_url"
        case locationName = "location_name"
        case accessLocation = "access_location"
        case accessProcedure = "access_procedure"
    }

    func encode(to encoder: Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(info.messageType, forKey: .messageType)
        try container.encode(info.responseCode, forKey: .responseCode)
        try container.encode(NetworkText.jsonValue(info.loginURL), forKey: .loginURL)
        try container.encode(NetworkText.jsonValue(info.abortLoginURL), forKey: .abortLoginURL)
        try container.encode(NetworkText.jsonValue(info.locationName), forKey: .locationName)
        try container.encode(NetworkText.jsonValue(info.accessLocation), forKey: .accessLocation)
        try container.encode(NetworkText.jsonValue(info.accessProcedure), forKey: .accessProcedure)
    }
}

struct LegacyCapportDocument: Encodable {
    var report: CapportReport
    init(_ report: CapportReport) { self.report = report }

    enum CodingKeys: String, CodingKey {
        case uri, source, interface, state, error, status, captive
        case userPortalURL = "user_portal_url"
        case venueInfoURL = "venue_info_url"
        case secondsRemaining = "seconds_remaining"
        case bytesRemaining = "bytes_remaining"
        case canExtendSession = "can_extend_session"
        case durationMs = "duration_ms"
    }

    func encode(to encoder: Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        let answer = report.answer
        try container.encode(NetworkText.jsonValue(report.uri), forKey: .uri)
        try container.encode(report.source, forKey: .source)
        try container.encode(NetworkText.jsonValue(report.interface), forKey: .interface)
        try container.encode(report.state.rawValue, forKey: .state)
        try container.encode(NetworkText.jsonValue(report.error), forKey: .error)
        try container.encode(report.status, forKey: .status)
        // "unrestricted" is the network saying, without an API, that nobody here is captive.
        try container.encode(answer?.captive ?? (report.state == .unrestricted ? false : nil), forKey: .captive)
        try container.encode(NetworkText.jsonValue(answer?.userPortalURL), forKey: .userPortalURL)
        try container.encode(NetworkText.jsonValue(answer?.venueInfoURL), forKey: .venueInfoURL)
        try container.encode(answer?.secondsRemaining, forKey: .secondsRemaining)
        try container.encode(answer?.bytesRemaining, forKey: .bytesRemaining)
        try container.encode(answer?.canExtendSession, forKey: .canExtendSession)
        try container.encode(Rounding.ms(report.durationMs), forKey: .durationMs)
    }
}

struct LegacyPortalDocument: Encodable {
    var portal: PortalInfo
    var sessionEnd: Date?
    init(_ portal: PortalInfo) { self.portal = portal }
    /// The portal object, or only its session's end, or null (nil).
    static func make(_ portal: PortalInfo?, sessionEnd: Date?) -> LegacyPortalDocument? {
        guard portal != nil || sessionEnd != nil else { return nil }
        var document = LegacyPortalDocument(portal ?? PortalInfo())
        document.sessionEnd = sessionEnd
        return document
    }

    enum CodingKeys: String, CodingKey {
        case url, source, probe, status, wispr
        case expiresAt = "expires_at"
        case loginURL = "login_url"
        case locationName = "location_name"
    }

    func encode(to encoder: Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(NetworkText.jsonValue(portal.url), forKey: .url)
        try container.encode(portal.source, forKey: .source)
        try container.encode(portal.probe, forKey: .probe)
        try container.encode(portal.status, forKey: .status)
        try container.encode(NetworkText.jsonValue(portal.loginURL), forKey: .loginURL)
        try container.encode(NetworkText.jsonValue(portal.locationName), forKey: .locationName)
        try container.encode(portal.wispr.map(LegacyWISPrDocument.init), forKey: .wispr)
        try container.encode(sessionEnd.map { Timestamp.iso8601($0, fractional: false) }, forKey: .expiresAt)
    }
}

struct LegacyCanaryDocument: Encodable {
    var canary: DNSCanaryReport
    init(_ canary: DNSCanaryReport) { self.canary = canary }

    enum CodingKeys: String, CodingKey { case name, resolved, address }

    func encode(to encoder: Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(canary.name, forKey: .name)
        try container.encode(canary.resolved, forKey: .resolved)
        try container.encode(canary.address, forKey: .address)
    }
}


struct LegacyCheckDNSDocument: Encodable {
    var dns: DNSConfiguration
    var resolvers: ResolverReport

    enum CodingKeys: String, CodingKey {
        case configured, link, servers, source, used, upstreams
        case configuredRetried = "configured_retried"
        case leaseErrors = "lease_errors"
        case upstreamsSource = "upstreams_source"
        case linkAsked = "link_asked"
        case linkError = "link_error"
        case linkInterface = "link_interface"
        case linkServer = "link_server"
        case linkSource = "link_source"
        case localStub = "local_stub"
        case searchDomains = "search_domains"
    }

    func encode(to encoder: Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(dns.servers, forKey: .configured)
        try container.encode(resolvers.configuredRetried, forKey: .configuredRetried)
        try container.encode(resolvers.leaseErrors.map(NetworkText.jsonValue), forKey: .leaseErrors)
        try container.encode(resolvers.link, forKey: .link)
        try container.encode(resolvers.linkAsked, forKey: .linkAsked)
        try container.encode(NetworkText.jsonValue(resolvers.linkError), forKey: .linkError)
        try container.encode(resolvers.linkInterface, forKey: .linkInterface)
        try container.encode(resolvers.linkServer, forKey: .linkServer)
        try container.encode(resolvers.linkSource, forKey: .linkSource)
        try container.encode(dns.localStub, forKey: .localStub)
        try container.encode(dns.searchDomains, forKey: .searchDomains)
        try container.encode(dns.servers, forKey: .servers)
        try container.encode(dns.source, forKey: .source)
        try container.encode(dns.upstreams, forKey: .upstreams)
        try container.encode(dns.upstreamsSource, forKey: .upstreamsSource)
        try container.encode(resolvers.used.rawValue, forKey: .used)
    }
}

struct LegacyPathDNSDocument: Encodable {
    var dns: DNSConfiguration

    enum CodingKeys: String, CodingKey {
        case servers, source, upstreams
        case localStub = "local_stub"
        case searchDomains = "search_domains"
        case upstreamsSource = "upstreams_source"
    }

    func encode(to encoder: Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(dns.localStub, forKey: .localStub)
        try container.encode(dns.searchDomains, forKey: .searchDomains)
        try container.encode(dns.servers, forKey: .servers)
        try container.encode(dns.source, forKey: .source)
        try container.encode(dns.upstreams, forKey: .upstreams)
        try container.encode(dns.upstreamsSource, forKey: .upstreamsSource)
    }
}
