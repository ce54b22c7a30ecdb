import Glibc
import NetprobeWire
import NetprobeVerdict
import NetprobeOutput
import NetprobeSystem
import NetprobeNetwork
import NetprobeCheck

public struct PollError: Error, CustomStringConvertible {
    public var code: Int32
    public var description: String { "poll: \(String(cString: strerror(code)))" }
}

/// The one place `wait` and `watch` sleep: a single poll(2) over the netlink
/// monitor, the signal self-pipe and (optionally) stdout, with a timeout that is
/// the next timer. Between events the process is asleep in poll; nothing spins.
///
/// The first change of a burst that can make a difference is reported at once: one the
/// caller's `decisive` test accepts (the path gate's answer is no longer the last check's),
/// or a change of the resolver configuration, which netlink never reports. The rest of
/// the burst (events less than `debounce` apart) is debounced here, over every source this
/// poll watches, so a signal or a closed stdout is still noticed during a
/// burst: it is reported once the kernel has been quiet for `debounce`, or at the latest
/// `maximumSettle` after the burst began (a link that never stops flapping is still
/// checked). So a route that appears is checked at once, and a hundred flaps cost two
/// checks, not two hundred. Overflows (ENOBUFS) are reported as changes: every check
/// takes a full fresh snapshot, which is the resynchronisation.
public final class ChangeWaiter {
    public enum Wake: Sendable, Equatable {
        /// The kernel's link/address/route/rule tables changed (and have settled).
        case pathChanged
        /// /etc/resolv.conf changed (and nothing in the kernel's tables with it).
        case resolverChanged
        /// A file in a directory of lease and link state files changed, and the directory has
        /// been quiet for the debounce since (the caller reads the files to tell whether it matters).
        case leaseChanged
        /// CLOCK_REALTIME jumped: the wall clock was set, or the machine resumed from suspend.
        /// The kernel does not say which; the caller tells them apart by comparing
        /// CLOCK_BOOTTIME with CLOCK_MONOTONIC (`ClockReading.slept(since:)`).
        case clockJumped
        /// The timer given to `next(until:)` is due.
        case timer
        /// One of the signals the waiter was told to wake for is pending in the inbox.
        case signal
        /// The reader of the watched output went away (POLLERR/POLLHUP on it).
        case outputClosed
    }

    private let monitor: PathMonitor
    private let resolvConf: ResolvConfWatch?
    private let signals: SignalInbox?
    private let wakeSignals: Set<Int32>
    private let output: Int32?
    private let clockChanges: ClockChangeWatch?
    private let leases: DirectoryWatch?
    /// When the lease directories' latest burst of changes is settled enough to read.
    private var leaseSettleAt: ContinuousClock.Instant?
    private var leaseBurstEndsAt: ContinuousClock.Instant?
    /// Events closer together than this belong to one burst.
    private let debounce: Duration = .milliseconds(100)
    /// A burst still going this long after it began is reported anyway.
    private let maximumSettle: Duration = .seconds(2)
    private let clock = ContinuousClock()
    private var settleAt: ContinuousClock.Instant?
    private var burstEndsAt: ContinuousClock.Instant?
    /// The last event, across checks: what tells a new burst from the rest of one.
    private var lastEventAt: ContinuousClock.Instant?
    /// This burst already had its immediate check.
    private var burstReported = false
    /// Only /etc/resolv.conf changed in this burst (it is reported as `resolverChanged`).
    private var burstOnlyResolver = true
    /// How many times the kernel reported lost events (each answered by a full re-check).
    public private(set) var overflows = 0

    /// Subscribes to the kernel's change events at once: create the waiter before the
    /// first check, so a change that lands during that check is not missed.
    /// `leaseDirectories`: where the DHCP/RA clients record leases and link state (`LeaseReader`);
    /// a change there wakes the caller (`leaseChanged`) once written files have settled.
    public init(signals: SignalInbox? = nil, wakeOn wakeSignals: Set<Int32> = [], watchingOutput output: Int32? = nil,
                leaseDirectories: [String] = []) throws(CheckError) {
        do {
            monitor = try PathMonitor()
        } catch {
            throw .netlink(error.description)
        }
        resolvConf = ResolvConfWatch()
        self.signals = signals
        self.wakeSignals = wakeSignals
        self.output = output
        clockChanges = ClockChangeWatch()
        leases = leaseDirectories.isEmpty ? nil : DirectoryWatch(leaseDirectories)
    }

    /// Call right before a check: it takes a fresh snapshot, so every event
    /// already queued is covered by it and must not cause another check.
    /// Events that arrive during the check stay queued and wake the next `next`.
    public func beginCheck() {
        consumeEvents()
        _ = resolvConf?.consume()
        _ = leases?.consume()
        settleAt = nil
        burstEndsAt = nil
        leaseSettleAt = nil
        leaseBurstEndsAt = nil
    }

    /// Sleeps until a settled path change, a wake signal, a closed output, or
    /// `timer` (nil: no timer), whichever comes first. `decisive` is asked after each batch
    /// of kernel events whether they can change the answer (the gate's verdict); if so, the
    /// change is reported at once instead of after the debounce.
    public func next(until timer: ContinuousClock.Instant?, decisive: () -> Bool) throws(PollError) -> Wake {
        while true {
            if let signals, signals.hasPending(wakeSignals) { return .signal }
            let now = clock.now
            if let settleAt, now >= settleAt {
                self.settleAt = nil
                burstEndsAt = nil
                return burstOnlyResolver ? .resolverChanged : .pathChanged
            }
            if let timer, now >= timer { return .timer }
            if let leaseSettleAt, now >= leaseSettleAt {
                self.leaseSettleAt = nil
                leaseBurstEndsAt = nil
                return .leaseChanged
            }

            var entries = [pollfd(fd: monitor.fileDescriptor, events: Int16(POLLIN), revents: 0)]
            /// Where each optional source sits in `entries`.
            func add(_ fd: Int32?, events: Int16 = Int16(POLLIN)) -> Int? {
                guard let fd else { return nil }
                entries.append(pollfd(fd: fd, events: events, revents: 0))
                return entries.count - 1
            }
            let signalsAt = add(signals?.fileDescriptor)
            // events 0: only POLLERR/POLLHUP are reported, which is all we want to know about stdout.
            let outputAt = add(output, events: 0)
            let clockAt = add(clockChanges?.fileDescriptor)
            let resolvAt = add(resolvConf?.fileDescriptor)
            let leasesAt = add(leases?.fileDescriptor)
            let wakeAt = [settleAt, timer, leaseSettleAt].compactMap { $0 }.min()
            let milliseconds = wakeAt.map { pollMilliseconds(until: $0, now: now) } ?? -1
            let ready = poll(&entries, nfds_t(entries.count), milliseconds)
            if ready < 0 {
                if errno == EINTR { continue }
                throw PollError(code: errno)
            }
            if ready == 0 { continue }
            func isReady(_ index: Int?) -> Bool { index.map { entries[$0].revents != 0 } ?? false }
            if let signals, isReady(signalsAt) { signals.collect() }
            if let outputAt, entries[outputAt].revents & Int16(POLLERR | POLLHUP | POLLNVAL) != 0 {
                return .outputClosed
            }
            if let clockChanges, isReady(clockAt) {
                clockChanges.consume()
                return .clockJumped
            }
            if let leases, isReady(leasesAt), leases.consume() {
                // Written files settle first (a lease written in pieces is read whole), bounded like a kernel burst.
                let arrived = clock.now
                let burstEnd = leaseBurstEndsAt ?? arrived + maximumSettle
                leaseBurstEndsAt = burstEnd
                leaseSettleAt = min(arrived + debounce, burstEnd)
            }
            let kernel = entries[0].revents != 0
            if kernel { consumeEvents() }
            // New resolver servers can turn a failed check around; nothing cheaper tells whether they do.
            let resolver = resolvConf.map { isReady(resolvAt) && $0.consume() } ?? false
            if kernel || resolver {
                let arrived = clock.now
                if lastEventAt.map({ arrived - $0 >= debounce }) ?? true {
                    burstReported = false
                    burstOnlyResolver = true
                }
                lastEventAt = arrived
                if kernel { burstOnlyResolver = false }
                if !burstReported && (resolver || decisive()) {
                    burstReported = true
                    settleAt = nil
                    burstEndsAt = nil
                    return kernel ? .pathChanged : .resolverChanged
                }
                let burstEnd = burstEndsAt ?? arrived + maximumSettle
                burstEndsAt = burstEnd
                settleAt = min(arrived + debounce, burstEnd)
            }
        }
    }

    /// Reads and discards whatever the monitor has queued, without waiting.
    private func consumeEvents() {
        if monitor.waitForChange(timeout: .zero) == .overflow { overflows += 1 }
    }
}

/// poll(2) milliseconds until `deadline` (see `Duration.pollMilliseconds`).
func pollMilliseconds(until deadline: ContinuousClock.Instant, now: ContinuousClock.Instant) -> Int32 {
    now.duration(to: deadline).pollMilliseconds
}
