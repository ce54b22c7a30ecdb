#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import NetprobeWire

/// An open session the Captive Portal API told of (RFC 8908 seconds-remaining, bytes-remaining):
/// the network lets the client out now, and will hold it again when the time or the bytes run out.
extension PathReport {
    /// seconds-remaining of an API that answered "not captive"; nil otherwise (no API, a failed
    /// answer, or a captive one, whose remaining time means nothing yet).
    public var sessionSecondsRemaining: Int? {
        guard let capport, capport.state == .answered, let answer = capport.answer, !answer.captive else { return nil }
        return answer.secondsRemaining
    }

    /// bytes-remaining of the same open session.
    public var sessionBytesRemaining: Int? {
        guard let capport, capport.state == .answered, let answer = capport.answer, !answer.captive else { return nil }
        return answer.bytesRemaining
    }

    /// When the session ends, counted from `start`: the check's start, a little before the API
    /// answered, so the estimate errs early (by the API's latency), never late.
    public func sessionEnd(from start: Date) -> Date? {
        sessionSecondsRemaining.map { start.addingTimeInterval(Double($0)) }
    }
}

extension Report {
    /// The end of the machine's own path's portal session (`portal.expires_at`), when the API gave one.
    public var portalSessionEnd: Date? { answer.sessionEnd(from: timestamp) }
}

extension Report {
    /// What the whole check's probes moved, every path's.
    public var bytesMoved: (sent: Int, received: Int) {
        bytesByProbe.values.reduce((0, 0)) { ($0.0 + $1.sent, $0.1 + $1.received) }
    }

    /// What each probe of every path moved in this check, by probe name (`ProbeObservation.bytesSent`).
    public var bytesByProbe: [String: (sent: Int, received: Int)] {
        var totals: [String: (sent: Int, received: Int)] = [:]
        for path in paths {
            for probe in path.probes {
                // A probe never sent moved nothing: it is counted as 0, so every probe has its series.
                let before = totals[probe.spec.name] ?? (0, 0)
                totals[probe.spec.name] = (before.sent + (probe.observation?.bytesSent ?? 0),
                                           before.received + (probe.observation?.bytesReceived ?? 0))
            }
        }
        return totals
    }
}
