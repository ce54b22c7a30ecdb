#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Glibc
import NetprobeWire
import NetprobeVerdict
import NetprobeOutput
import NetprobeSystem
import NetprobeNetwork
import NetprobeCheck

/// Why `watch` ran a check: the record's `trigger` and a hook's NETPROBE_TRIGGER.
public enum WatchTrigger: String, Sendable, CaseIterable {
    /// The first check.
    case start
    /// The --interval timer, while online.
    case interval
    /// The back-off timer while not online, or a re-check confirming a new state within --hold.
    case retry
    /// The kernel reported a link, address, route or policy-rule change.
    case link
    /// /etc/resolv.conf changed.
    case resolv
    /// A lease or link state file now announces another Captive Portal API URI, or other
    /// resolvers, for the verdict's link (a DHCP renewal, networkd rewriting its state).
    case lease
    /// The machine's own TCP traffic stalled on the verdict's path (`StallDetector`).
    case stall
    /// The machine slept (suspend) and woke up.
    case resume
    /// The portal session's end is near, or has come (Captive Portal API seconds-remaining).
    case expiry
    /// SIGHUP: the configuration was reloaded.
    case signal
}

/// Both of the kernel's clocks that count from boot, read together. CLOCK_MONOTONIC stops while
/// the machine is suspended, CLOCK_BOOTTIME does not: when BOOTTIME moved further than MONOTONIC
/// across a wait, the machine slept in between. Neither moves when someone sets the wall clock.
public struct ClockReading: Sendable, Equatable {
    public var monotonic: Duration
    public var boottime: Duration

    /// How long the machine was asleep between `earlier` and this reading.
    public func slept(since earlier: ClockReading) -> Duration {
        (boottime - earlier.boottime) - (monotonic - earlier.monotonic)
    }
}

/// Where the watch loop reads the time: the kernel, or a script in tests.
public protocol WatchClock {
    func now() -> ClockReading
    /// The wall clock, for timestamps and the textfile only: never for timers.
    func wallNow() -> Date
}

public struct SystemWatchClock: WatchClock {
    public init() {}

    /// On Linux the standard library's ContinuousClock is CLOCK_BOOTTIME and SuspendingClock is
    /// CLOCK_MONOTONIC. Readings count from this process's first one: only differences matter.
    private static let origin = (boottime: ContinuousClock.now, monotonic: SuspendingClock.now)

    public func now() -> ClockReading {
        ClockReading(monotonic: Self.origin.monotonic.duration(to: .now), boottime: Self.origin.boottime.duration(to: .now))
    }

    public func wallNow() -> Date { Date() }
}
