/// JSON shapes of the portal intelligence (schemas/report.schema.json): every key is
/// always written, null when unknown. Every string here came from the network (a portal
/// page, an API answer, a DHCP lease): controls filtered on the way out (`NetworkText`).
enum WISPrDocument {
    static func json(_ info: WISPrInfo) -> JSONOut {
        .object([
            "message_type": .int(info.messageType),
            "response_code": .int(info.responseCode),
            "login_url": .string(NetworkText.jsonValue(info.loginURL)),
            "abort_login_url": .string(NetworkText.jsonValue(info.abortLoginURL)),
            "location_name": .string(NetworkText.jsonValue(info.locationName)),
            "access_location": .string(NetworkText.jsonValue(info.accessLocation)),
            "access_procedure": .string(NetworkText.jsonValue(info.accessProcedure)),
        ])
    }
}

enum CapportDocument {
    static func json(_ report: CapportReport) -> JSONOut {
        let answer = report.answer
        return .object([
            "uri": .string(NetworkText.jsonValue(report.uri)),
            "source": .string(report.source),
            "interface": .string(NetworkText.jsonValue(report.interface)),
            "state": .string(report.state.rawValue),
            "error": .string(NetworkText.jsonValue(report.error)),
            "status": .int(report.status),
            // "unrestricted" is the network saying, without an API, that nobody here is captive.
            "captive": .bool(answer?.captive ?? (report.state == .unrestricted ? false : nil)),
            "user_portal_url": .string(NetworkText.jsonValue(answer?.userPortalURL)),
            "venue_info_url": .string(NetworkText.jsonValue(answer?.venueInfoURL)),
            "seconds_remaining": .int(answer?.secondsRemaining),
            "bytes_remaining": .int(answer?.bytesRemaining),
            "can_extend_session": .bool(answer?.canExtendSession),
            "duration_ms": .number(Rounding.ms(report.durationMs)),
        ])
    }
}

enum PortalDocument {
    static func json(_ portal: PortalInfo) -> JSONOut {
        .object([
            "url": .string(NetworkText.jsonValue(portal.url)),
            "source": .string(portal.source),
            "probe": .string(portal.probe),
            "status": .int(portal.status),
            "login_url": .string(NetworkText.jsonValue(portal.loginURL)),
            "location_name": .string(NetworkText.jsonValue(portal.locationName)),
            "wispr": portal.wispr.map(WISPrDocument.json) ?? .null,
        ])
    }
}

enum CanaryDocument {
    static func json(_ canary: DNSCanaryReport) -> JSONOut {
        .object([
            "name": .string(canary.name),
            "resolved": .bool(canary.resolved),
            "address": .string(canary.address),
        ])
    }
}
