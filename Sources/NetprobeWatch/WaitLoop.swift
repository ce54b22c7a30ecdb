import NetprobeWire
import NetprobeVerdict
import NetprobeOutput
import NetprobeSystem
import NetprobeNetwork
import NetprobeCheck

/// What wakes a waiting loop: the kernel's change events, the resolver configuration, a
/// timer, a signal. The real one is `ChangeWaiter` (netlink + poll); tests script one.
public protocol ChangeSource: AnyObject {
    /// Right before a check: everything already queued is covered by the check's snapshot.
    func beginCheck()
    /// Sleeps until a change (`decisive` says whether one may change the gate's answer), a
    /// signal, a closed output, or `timer`.
    func next(until timer: ContinuousClock.Instant?, decisive: () -> Bool) throws -> ChangeWaiter.Wake
}

extension ChangeWaiter: ChangeSource {}

/// `netprobe wait`: check at once; while not online, check again as soon as the path changes,
/// else after 1, 2, 4 ... 30 s; return the first online report, or at the deadline the last
/// complete one (a check the deadline cut short and that only timed out says nothing new:
/// a portal stays a portal).
public struct WaitLoop {
    public var checker: Checker
    public var changes: any ChangeSource
    public var options: CheckOptions
    public var deadline: ContinuousClock.Instant
    /// Told of each report that is not yet the answer (the progress line).
    public var progress: (Report) -> Void

    public init(checker: Checker, changes: any ChangeSource, options: CheckOptions, deadline: ContinuousClock.Instant,
                progress: @escaping (Report) -> Void = { _ in }) {
        self.checker = checker
        self.changes = changes
        self.options = options
        self.deadline = deadline
        self.progress = progress
    }

    public func run() throws -> Report {
        let clock = ContinuousClock()
        let configTimeout = options.config.timeout
        var backoff = Backoff()
        var last: Report?
        while true {
            changes.beginCheck()
            let remaining = clock.now.duration(to: deadline).inSeconds
            let truncated = remaining < configTimeout
            let report = try checker.run(options.with(timeout: max(min(remaining, configTimeout), 0.001)))
            if report.verdict == .online { return report }
            if !(truncated && report.reason == .timeout && last != nil) { last = report }
            guard let current = last, clock.now < deadline else { return last ?? report }
            progress(current)
            // Ready to send the moment the route appears: libcurl is loaded now, not then.
            checker.prepare()
            let timer = min(clock.now + backoff.next(), deadline)
            let options = options
            switch try changes.next(until: timer, decisive: { checker.gateMoved(options) }) {
            case .pathChanged, .resolverChanged, .clockJumped: backoff.reset()
            case .timer, .signal, .outputClosed, .leaseChanged: break
            }
            if clock.now >= deadline { return current }
        }
    }
}
