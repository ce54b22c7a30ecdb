#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

import NetprobeWire

/// Where the Captive Portal API URI came from, and what asking it gave: the report's `capport` object.
public struct CapportReport: Sendable, Equatable {
    public enum State: String, Sendable {
        /// The API answered with a valid document.
        case answered
        /// The network announced `urn:ietf:params:capport:unrestricted`: no portal, nothing to ask.
        case unrestricted
        /// The API could not be asked or gave no valid answer (see `error`).
        case failed
    }

    /// RFC 8910: the URI a network announces when it has no captive portal.
    public static let unrestrictedURI = "urn:ietf:params:capport:unrestricted"
    /// RFC 8908: the API is reached over HTTPS only; any other URI is never queried.
    public static func isHTTPS(_ uri: String) -> Bool {
        uri.lowercased().hasPrefix("https://") && URLRules.httpHost(uri) != nil
    }

    public var uri: String
    /// option (--capport-url), systemd-networkd, dhclient, dhcpcd
    public var source: String
    /// The interface the URI was learned on (nil for --capport-url).
    public var interface: String?
    public var state: State
    public var error: String?
    /// HTTP status of the API's answer.
    public var status: Int?
    public var answer: CapportAnswer?
    public var durationMs: Double?

    public init(uri: String, source: String, interface: String? = nil, state: State, error: String? = nil, status: Int? = nil,
                answer: CapportAnswer? = nil, durationMs: Double? = nil) {
        self.uri = uri
        self.source = source
        self.interface = interface
        self.state = state
        self.error = error
        self.status = status
        self.answer = answer
        self.durationMs = durationMs
    }

    /// Judges the API's HTTP answer: transport errors, a status other than 200, a media type other
    /// than captive+json (or plain JSON), a body over the cap or invalid JSON all make it `failed`.
    public static func from(_ observation: ProbeObservation, uri: String, source: String, interface: String?) -> CapportReport {
        var report = CapportReport(uri: uri, source: source, interface: interface, state: .failed,
                                   status: observation.status, durationMs: observation.timings.totalMs)
        if let error = observation.transportError {
            report.error = error.message
            report.durationMs = error.kind == .cancelled ? nil : report.durationMs
            return report
        }
        guard let status = observation.status, status == 200 else {
            report.error = observation.status.map { "HTTP status \($0), expected 200" } ?? "no HTTP answer"
            return report
        }
        if let type = observation.header("content-type") {
            let media = MarkupScanner.trim(String(type.prefix { $0 != ";" })).lowercased()
            guard media == "application/captive+json" || media == "application/json" else {
                report.error = "media type \(media), expected application/captive+json"
                return report
            }
        }
        guard !observation.bodyTruncated else {
            report.error = "answer larger than \(CapportParser.maxBytes) bytes"
            return report
        }
        switch CapportParser.parse(observation.body) {
        case .success(let answer):
            report.state = .answered
            report.answer = answer
        case .failure(let error):
            report.error = error.description
        }
        return report
    }
}

/// What the verdict engine needs to know about the Captive Portal API.
public enum CapportSignal: Sendable, Equatable {
    /// No API known (or the network said "unrestricted").
    case absent
    /// Asked, no answer yet: the verdict waits for it (within the deadline).
    case pending
    /// Answered, or failed; `captive` is true only for a valid answer saying so.
    case settled(captive: Bool)

    public init(_ report: CapportReport?) {
        guard let report, report.state != .unrestricted else { self = .absent; return }
        self = .settled(captive: report.answer?.captive == true)
    }
}

extension CapportReport {
    /// An http:// (not https) URL: announced or given, it is reported and never asked.
    public static func isPlainHTTP(_ uri: String) -> Bool {
        uri.lowercased().hasPrefix("http://") && URLRules.httpHost(uri) != nil
    }
}
