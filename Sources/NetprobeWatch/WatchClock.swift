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
    /// The wall clock was set (a step): no check, an `alive` record marking the moment, so a
    /// reader of the log tells the step from time that passed.
    case clock
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
    /// The id of this boot (the kernel's /proc/sys/kernel/random/boot_id, or the same id handed
    /// down by the service manager where a sandbox hides that file): readings of the boot clocks
    /// compare only within one boot. nil when unknown.
    var bootID: String? { get }
}

extension WatchClock {
    public var bootID: String? { nil }
}

public struct SystemWatchClock: WatchClock {
    public init() {}

    /// Both clocks as the kernel counts them, from boot: a record carries them (`RecordClock`),
    /// so a reader compares them across records and processes of one boot.
    public func now() -> ClockReading {
        ClockReading(monotonic: Self.read(CLOCK_MONOTONIC), boottime: Self.read(CLOCK_BOOTTIME))
    }

    public func wallNow() -> Date { Date() }

    public var bootID: String? { Self.boot }

    /// Read once: it is the same for the process's whole life.
    private static let boot: String? = bootID(
        kernel: CheckedFile.text(kernelBootIDFile, limit: 64), handedDown: ProcessEnvironment.value(bootIDVariable))

    /// Where the kernel shows the boot's id; `ProcSubset=pid` (the shipped units) hides it.
    public static let kernelBootIDFile = "/proc/sys/kernel/random/boot_id"
    /// The boot's id as whoever started watch read it: the units set it from systemd's `%b`
    /// (the service manager reads the kernel's file outside the sandbox that hides it from us).
    public static let bootIDVariable = "NETPROBE_BOOT_ID"

    /// The kernel's own file when it can be read, else the id handed down; in the kernel's form
    /// (lower-case UUID with dashes) whichever way it came, so that records written under the
    /// unit and outside it compare. nil when neither is a UUID: no boot proof at all.
    public static func bootID(kernel: String?, handedDown: String?) -> String? {
        uuid(kernel) ?? uuid(handedDown)
    }

    /// A UUID as the kernel prints it (8-4-4-4-12 hex digits) or as systemd prints an id
    /// (32 hex digits); anything else is not a boot id to compare.
    static func uuid(_ text: String?) -> String? {
        guard let text else { return nil }
        let word = text.split(whereSeparator: \.isWhitespace).first.map { $0.lowercased() } ?? ""
        let digits = word.utf8.filter { $0 != 0x2D }
        guard digits.count == 32, digits.allSatisfy({ ($0 >= 0x30 && $0 <= 0x39) || ($0 >= 0x61 && $0 <= 0x66) }) else { return nil }
        let dashed = word.utf8.count == 36 && [8, 13, 18, 23].allSatisfy { word.utf8[word.utf8.index(word.utf8.startIndex, offsetBy: $0)] == 0x2D }
        guard dashed || word.utf8.count == 32 else { return nil }
        var out = ""
        for (index, digit) in digits.enumerated() {
            if [8, 12, 16, 20].contains(index) { out += "-" }
            out.unicodeScalars.append(Unicode.Scalar(digit))
        }
        return out
    }

    private static func read(_ clock: clockid_t) -> Duration {
        var time = timespec()
        guard clock_gettime(clock, &time) == 0 else { return .zero }  // both exist on every kernel netprobe runs on
        return .seconds(time.tv_sec) + .nanoseconds(time.tv_nsec)
    }
}

/// What a record says of the moment it was made, beyond the wall clock: the time since boot
/// with (boottime) and without (monotonic) the time the machine slept, and which boot. The wall
/// clock can be stepped (NTP, a machine without a battery-backed clock starting at its last
/// shutdown's time) and stands still for no sleep; these cannot be set. Between two records of
/// one boot, monotonic's difference is the time watch was awake to prove anything, whatever the
/// wall clock did.
public struct RecordClock: Sendable, Equatable {
    public var bootID: String?
    public var reading: ClockReading

    public init(bootID: String?, reading: ClockReading) {
        self.bootID = bootID
        self.reading = reading
    }
}
