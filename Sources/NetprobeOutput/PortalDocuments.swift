#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import NetprobeWire
import NetprobeVerdict

/// JSON shapes of the portal intelligence (schemas/report.schema.json): every key is
/// always written, null when unknown. Every string here came from the network (a portal
/// page, an API answer, a DHCP lease): controls filtered on the way out (`NetworkText`).
enum WISPrDocument {
    static func json(_ info: WISPrInfo) -> JSONOut {
        .object([
            "abort_login_url": .string(NetworkText.jsonValue(info.abortLoginURL)),
            "access_location": .string(NetworkText.jsonValue(info.accessLocation)),
            "access_procedure": .string(NetworkText.jsonValue(info.accessProcedure)),
            "location_name": .string(NetworkText.jsonValue(info.locationName)),
            "login_url": .string(NetworkText.jsonValue(info.loginURL)),
            "message_type": .int(info.messageType),
            "response_code": .int(info.responseCode),
        ])
    }
}

enum CapportDocument {
    static func json(_ report: CapportReport) -> JSONOut {
        let answer = report.answer
        return .object([
            "bytes_remaining": .int(answer?.bytesRemaining),
            "can_extend_session": .bool(answer?.canExtendSession),
            // "unrestricted" is the network saying, without an API, that nobody here is captive.
            "captive": .bool(answer?.captive ?? (report.state == .unrestricted ? false : nil)),
            "duration_ms": .number(Rounding.ms(report.durationMs)),
            "error": .string(NetworkText.jsonValue(report.error)),
            "interface": .string(NetworkText.jsonValue(report.interface)),
            "seconds_remaining": .int(answer?.secondsRemaining),
            "source": .string(report.source),
            "state": .string(report.state.rawValue),
            "status": .int(report.status),
            "uri": .string(NetworkText.jsonValue(report.uri)),
            "user_portal_url": .string(NetworkText.jsonValue(answer?.userPortalURL)),
            "venue_info_url": .string(NetworkText.jsonValue(answer?.venueInfoURL)),
        ])
    }
}

/// The `dhcp_inform` object: the one DHCPINFORM a check sent for the API the machine did not keep.
enum DHCPInformDocument {
    static func json(_ report: DHCPInformReport?) -> JSONOut {
        guard let report else { return .null }
        return .object([
            "captive_portal": .string(NetworkText.jsonValue(report.captivePortal)),
            "client_address": .string(report.clientAddress),
            "dns": .strings(report.nameServers),
            "duration_ms": .number(Rounding.ms(report.durationMs)),
            "error": .string(NetworkText.jsonValue(report.error)),
            "ignored": .int(report.ignored),
            "ignored_reason": .string(NetworkText.jsonValue(report.ignoredReason)),
            "interface": .string(NetworkText.jsonValue(report.interface)),
            "remembered": .bool(report.remembered),
            "server": .string(report.server),
            "state": .string(report.state.rawValue),
        ])
    }
}

enum PortalDocument {
    /// The `portal` object: behind a portal, what is known of it; in an open session the Captive
    /// Portal API told of, only when it ends (`expires_at`); null when neither.
    static func json(_ portal: PortalInfo?, sessionEnd: Date?) -> JSONOut {
        guard portal != nil || sessionEnd != nil else { return .null }
        let portal = portal ?? PortalInfo()
        return .object([
            "expires_at": .string(sessionEnd.map { Timestamp.iso8601($0, fractional: false) }),
            "location_name": .string(NetworkText.jsonValue(portal.locationName)),
            "login_url": .string(NetworkText.jsonValue(portal.loginURL)),
            "probe": .string(portal.probe),
            "source": .string(portal.source),
            "status": .int(portal.status),
            "url": .string(NetworkText.jsonValue(portal.url)),
            "wispr": portal.wispr.map(WISPrDocument.json) ?? .null,
        ])
    }
}

enum CanaryDocument {
    static func json(_ canary: DNSCanaryReport) -> JSONOut {
        .object([
            "address": .string(canary.address),
            "name": .string(canary.name),
            "resolved": .bool(canary.resolved),
        ])
    }
}
