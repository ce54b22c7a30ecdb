import Synchronization
import NetprobeWire
import NetprobeLinkState

/// The one connection to the system bus through which the link's owners are asked, for a
/// check, a `wait` or a whole `watch` (the `Checker` holds one): the stub's owner, every path's
/// plan, every lease reading and every lease-directory event ask over it. Kept between checks,
/// and opened again when the broker closed it.
///
/// Bounded by the check's deadline, the connection too: connecting, authenticating and the
/// Hello reply take at most one call's limit (a quarter of a second), as does each call, and
/// nothing is asked past the deadline. A broker that accepts and never answers (dbus.socket
/// while the broker starts, at boot; a wedged one) costs a check one limit, not sd-bus's 90 s.
///
/// Whoever ran out of time, the broker or one daemon, is not asked again in that check, then
/// not for a minute (`firstPause`), then once, and after each further silence the pause
/// doubles, up to an hour: a hung daemon costs a long `watch` one limit now and then, not one
/// per question. One that answers is forgiven. A wait the deadline cut short proves nothing
/// and pauses nobody (nothing more is asked in that check anyway).
public final class OwnerBus: Sendable {
    /// The broker's own name: who is silent when the connection itself ran out of time.
    public static let broker = "org.freedesktop.DBus"
    static let firstPause: Duration = .seconds(60)
    static let longestPause: Duration = .seconds(3600)

    /// A D-Bus address; nil: `DBUS_SYSTEM_BUS_ADDRESS`, else the standard socket.
    public let address: String?
    /// The time silences are judged by (tests move it; deadlines are the real clock's).
    let clock: @Sendable () -> ContinuousClock.Instant
    private let state = Mutex(State())

    public convenience init(address: String? = nil) {
        self.init(address: address, clock: { .now })
    }

    init(address: String?, clock: @escaping @Sendable () -> ContinuousClock.Instant) {
        self.address = address
        self.clock = clock
    }

    private struct State {
        var connection: SystemBus?
        /// Connections started to the broker, answered or not.
        var connections = 0
        /// Counts checks: a silence or an unreachable broker holds for the rest of its check.
        var check = 0
        var deadline: ContinuousClock.Instant?
        /// The check in which the broker could not be reached (no socket, refused).
        var unreachableIn: Int?
        var silent: [String: Silence] = [:]
    }

    private struct Silence {
        var check: Int
        var until: ContinuousClock.Instant
        var pause: Duration
    }

    /// Connections started to the broker so far (answered or not).
    public var connections: Int {
        state.withLock { $0.connections }
    }

    /// Whether `name` (a daemon, or `broker`) ran out of time and is not asked now.
    public func isSilent(_ name: String) -> Bool {
        state.withLock { Self.silenced(name, in: $0, at: clock()) }
    }

    /// A check starts: nothing is asked past `deadline`, and the silences and the unreachable
    /// broker of the last check end (the pauses go on).
    public func beginCheck(deadline: ContinuousClock.Instant) {
        state.withLock { state in
            state.check += 1
            state.deadline = deadline
            if let connection = state.connection, !connection.isOpen { state.connection = nil }
        }
    }

    /// The check ended: questions between checks (a lease directory changed) have no deadline
    /// but each call's limit.
    public func endCheck() {
        state.withLock { $0.deadline = nil }
    }

    /// The reply of one method call to `destination`, waited for at most `limit` and never past
    /// the check's deadline (connecting first when needed, within the same bound); nil when it
    /// failed, ran out of time, or `destination` or the broker is silent.
    func call(_ destination: String, _ path: String, _ interface: String, _ member: String,
              string: String? = nil, int32: Int32? = nil, limit: Duration) -> [BusValue]? {
        state.withLock { state -> [BusValue]? in
            let now = clock()
            guard !Self.silenced(destination, in: state, at: now),
                  let bus = Self.connection(&state, address: address, limit: limit, now: now),
                  let bound = Self.bound(limit, state.deadline) else { return nil }
            switch bus.call(destination, path, interface, member, string: string, int32: int32, within: bound) {
            case .values(let values):
                state.silent[destination] = nil
                return values
            case .failed:
                state.silent[destination] = nil
                return nil
            case .timedOut:
                // Cut short by the deadline, it proved nothing, and nothing more is asked this check.
                if bound == limit { Self.silence(destination, in: &state, at: now) }
                return nil
            case .broken:
                state.connection = nil
                return nil
            }
        }
    }

    /// Every property of `interface` on `path` (a{sv}).
    func properties(_ destination: String, _ path: String, _ interface: String, limit: Duration) -> BusValue? {
        call(destination, path, "org.freedesktop.DBus.Properties", "GetAll", string: interface, limit: limit)?.first
    }

    /// The standing connection, or a new one within the call's bound; nil when the broker is
    /// silent, unreachable this check, or did not answer in time.
    private static func connection(_ state: inout State, address: String?, limit: Duration,
                                   now: ContinuousClock.Instant) -> SystemBus? {
        if let connection = state.connection { return connection }
        guard state.unreachableIn != state.check, !silenced(broker, in: state, at: now),
              let bound = bound(limit, state.deadline) else { return nil }
        state.connections += 1
        switch SystemBus.connect(address: address, within: bound) {
        case .opened(let bus):
            state.connection = bus
            state.silent[broker] = nil
            return bus
        case .timedOut:
            if bound == limit { silence(broker, in: &state, at: now) }
        case .unreachable:
            state.unreachableIn = state.check
        }
        return nil
    }

    /// `limit`, shortened to what is left before `deadline`; nil when nothing is.
    private static func bound(_ limit: Duration, _ deadline: ContinuousClock.Instant?) -> Duration? {
        guard let deadline else { return limit }
        let left = ContinuousClock.now.duration(to: deadline)
        guard left >= .milliseconds(1) else { return nil }
        return min(limit, left)
    }

    private static func silenced(_ name: String, in state: State, at now: ContinuousClock.Instant) -> Bool {
        guard let silence = state.silent[name] else { return false }
        return silence.check == state.check || now < silence.until
    }

    private static func silence(_ name: String, in state: inout State, at now: ContinuousClock.Instant) {
        let pause = state.silent[name].map { min($0.pause * 2, longestPause) } ?? firstPause
        state.silent[name] = Silence(check: state.check, until: now + pause, pause: pause)
    }
}
