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

    public init(monotonic: Duration, boottime: Duration) {
        self.monotonic = monotonic
        self.boottime = boottime
    }

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

    public func now() -> ClockReading {
        ClockReading(monotonic: Self.read(CLOCK_MONOTONIC), boottime: Self.read(CLOCK_BOOTTIME))
    }

    public func wallNow() -> Date { Date() }

    private static func read(_ id: clockid_t) -> Duration {
        var spec = timespec()
        clock_gettime(id, &spec)  // cannot fail for these two clocks on Linux
        return .seconds(spec.tv_sec) + .nanoseconds(spec.tv_nsec)
    }
}

/// Spreads the re-check delays (interval and back-off) by up to ±`fraction`, so machines that lost
/// the network together do not all probe again at the same instant. Tests turn it off, or seed it.
public struct Jitter {
    public static let standardFraction = 0.1
    public let fraction: Double
    private var generator: any RandomNumberGenerator

    public init(fraction: Double = Jitter.standardFraction, generator: any RandomNumberGenerator = SystemRandomNumberGenerator()) {
        self.fraction = fraction
        self.generator = generator
    }

    public static var off: Jitter { Jitter(fraction: 0) }

    public mutating func spread(_ delay: Duration) -> Duration {
        guard fraction > 0 else { return delay }
        let factor = 1 + Double.random(in: -fraction...fraction, using: &generator)
        return .nanoseconds(Int64((Double(delay.inNanoseconds) * factor).rounded()))
    }
}

/// A small seedable generator (SplitMix64): the same seed gives the same delays.
public struct SeededGenerator: RandomNumberGenerator {
    private var state: UInt64
    public init(seed: UInt64) { state = seed }
    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

extension Duration {
    var inNanoseconds: Int64 {
        let (seconds, attoseconds) = components
        return seconds * 1_000_000_000 + attoseconds / 1_000_000_000
    }
}
