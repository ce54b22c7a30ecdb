#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import NetprobeWire
import NetprobeVerdict
import NetprobeOutput
import NetprobeSystem
import NetprobeNetwork
import NetprobeCheck

/// Follows an open session that the Captive Portal API announced (seconds-remaining), so that
/// its end is not silent: a check shortly before the end re-asks the API (a session the portal
/// extended is news, not an alarm), an `expiring` record warns once per session, and a check
/// right after the end finds the portal within a second or so, with nothing else happening.
///
/// One warning per session, whatever the API does in between: a check the API did not answer
/// (it failed, or was not asked) keeps the session until its end has passed, and a session whose
/// end is that of the one last warned of (the API fell silent, or said something else, and then
/// told of the same end again) is the same session, not a new one to warn of.
///
/// Times are the boot-time clock's: a session runs on while the machine sleeps.
public struct PortalSessionWatch {
    /// The warning lead: a fixed one (--session-warning), or nil for the default.
    public let lead: Duration?
    /// The default lead: a minute, or a tenth of a session shorter than ten minutes.
    public static let defaultLead: Duration = .seconds(60)
    /// An end that moved by less than this between two answers is the same session (the API
    /// counts in whole seconds, and each answer comes a little later in the check).
    static let sameSessionTolerance: Duration = .seconds(2)
    /// The checks after the end: it is estimated early (from the check's start), so a first check
    /// may still find the session; two more follow a second apart.
    static let endChecks: [Duration] = [.milliseconds(250), .milliseconds(1250), .milliseconds(2250)]

    public struct Session: Equatable {
        /// The end on the boot-time clock, and on the wall clock (`expires_at`).
        public var end: Duration
        public var endDate: Date
        /// When the warning is due.
        public var warnAt: Duration
        public var warned = false
        /// How many of `endChecks` have been run.
        var endChecksDone = 0
    }

    public private(set) var session: Session?
    /// The end of the session last warned of: the same end seen again is not warned of twice.
    private var warnedEnd: Duration?

    public init(lead: Duration?) {
        self.lead = lead
    }

    /// Takes in a check's report (`at`: the check's start). True when the `expiring` record is due:
    /// the end is within the lead, and this session was not warned of yet.
    public mutating func observe(_ report: Report, at now: Duration) -> Bool {
        guard let seconds = report.answer.sessionSecondsRemaining, let endDate = report.portalSessionEnd else {
            // An API that answered without a session (captive, or no seconds-remaining) ended it;
            // one that did not answer says nothing, and the session runs on to its end and the checks after it.
            if let current = session, report.answer.capport?.state != .answered, now < current.end + Self.endChecks.last! {
                return false
            }
            session = nil
            return false
        }
        let end = now + .seconds(seconds)
        if var current = session, Self.sameEnd(end, current.end) {
            // The same session, asked again: its end as now estimated, its warning given or not.
            current.end = end
            current.endDate = endDate
            session = current
        } else {
            // A new session, or one the portal extended or shortened: warned of anew.
            let lead = self.lead ?? min(Self.defaultLead, .seconds(seconds) / 10)
            session = Session(end: end, endDate: endDate, warnAt: end - lead)
            if let warnedEnd, Self.sameEnd(end, warnedEnd) { session?.warned = true }
        }
        if session?.warned == true { warnedEnd = end }
        guard var current = session, !current.warned, now >= current.warnAt - .milliseconds(500) else { return false }
        current.warned = true
        session = current
        warnedEnd = end
        return true
    }

    static func sameEnd(_ one: Duration, _ other: Duration) -> Bool {
        abs((one - other).inNanoseconds) <= sameSessionTolerance.inNanoseconds
    }

    /// The next moment the session needs a check: its warning, then its end (and a little after).
    public var nextCheck: Duration? {
        guard let session else { return nil }
        if !session.warned { return session.warnAt }
        guard session.endChecksDone < Self.endChecks.count else { return nil }
        return session.end + Self.endChecks[session.endChecksDone]
    }

    /// A check for `nextCheck` is starting at `now`.
    public mutating func checking(at now: Duration) {
        guard var current = session, current.warned else { return }
        while current.endChecksDone < Self.endChecks.count && now >= current.end + Self.endChecks[current.endChecksDone] {
            current.endChecksDone += 1
        }
        session = current
    }
}
