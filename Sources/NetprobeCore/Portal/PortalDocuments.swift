/// JSON shapes of the portal intelligence (schemas/report.schema.json): every key is
/// always written, null when unknown. Every string here came from the network (a portal
/// page, an API answer, a DHCP lease): controls filtered on the way out (`NetworkText`).
struct WISPrDocument: Encodable {
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

struct CapportDocument: Encodable {
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

struct PortalDocument: Encodable {
    var portal: PortalInfo
    init(_ portal: PortalInfo) { self.portal = portal }

    enum CodingKeys: String, CodingKey {
        case url, source, probe, status, wispr
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
        try container.encode(portal.wispr.map(WISPrDocument.init), forKey: .wispr)
    }
}

struct CanaryDocument: Encodable {
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
