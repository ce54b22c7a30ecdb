import NetprobeWire
import NetprobeVerdict
import NetprobeOutput
import NetprobeSystem
import NetprobeNetwork
import NetprobeCheck

/// `watch --hold`: a new state is reported only once it has held for `hold`, confirmed by
/// re-checks about once a second; a state that reverts within the hold is never reported.
/// What must hold is the departure from the reported state: a network that went from online
/// to offline but whose reason moves between timeout and connect-failed from one check to the
/// next (an unreachable gateway does that) is reported, with the latest reason, once the hold
/// has passed without the reported state coming back.
/// So a Wi-Fi link that drops for 200 ms, or a route that a roaming client loses for a
/// second, costs no record and no hook run, while an outage that lasts is reported `hold`
/// after it began (and its end, `hold` after that).
///
/// Times are the boot-time clock's, at each check's start (`ClockReading.boottime`).
public struct HoldGate {
    public let hold: Duration
    /// How often the state is re-checked while it is held.
    public static let confirmationSpacing: Duration = .seconds(1)

    /// The departure seen but not yet reported: its latest report, when it began, and why the
    /// check that first saw it ran.
    public private(set) var candidate: (report: Report, since: Duration, trigger: WatchTrigger)?
    private var lastCheck: Duration = .zero

    public init(hold: Duration) {
        self.hold = hold
    }

    public enum Decision {
        /// Report this state now, found by a check that ran for `trigger`.
        case report(Report, trigger: WatchTrigger)
        /// Nothing new: the state is the reported one (a candidate that reverted is forgotten).
        case unchanged
        /// A new state is being held: re-check by `recheckAt`.
        case holding
    }

    /// Judges a check's `report` against the state last reported (`reported`; nil before the start record).
    public mutating func judge(_ report: Report, reported: Report?, at now: Duration, trigger: WatchTrigger,
                               allPaths: Bool) -> Decision {
        lastCheck = now
        guard let reported else { return .report(report, trigger: trigger) }
        guard WatchRecord.after(reported, report, allPaths: allPaths) != nil else {
            candidate = nil
            return .unchanged
        }
        if hold <= .zero { return .report(report, trigger: trigger) }
        guard let held = candidate else {
            // A departure from the reported state: its hold starts now.
            candidate = (report, now, trigger)
            return .holding
        }
        if now - held.since >= hold {
            candidate = nil
            return .report(report, trigger: held.trigger)
        }
        candidate = (report, held.since, held.trigger)
        return .holding
    }

    /// When the held state must be checked again: about once a second, and exactly when the hold ends.
    public var recheckAt: Duration? {
        guard let candidate else { return nil }
        return min(candidate.since + hold, lastCheck + Self.confirmationSpacing)
    }

    /// Forgets the held state (a new configuration makes it meaningless).
    public mutating func reset() {
        candidate = nil
    }
}
