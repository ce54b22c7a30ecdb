import NetprobeWire
import NetprobeVerdict
import NetprobeOutput
import NetprobeSystem
import NetprobeNetwork
import NetprobeCheck
/// Re-check delays while not online: 1 s, 2 s, 4 s ... up to a cap, so a
/// network that comes back by itself (a DHCP lease, a portal login) is noticed
/// soon, and a network that stays down costs a few wake-ups an hour, not a loop.
public struct Backoff: Sendable, Equatable {
    public static let initial: Duration = .seconds(1)
    public static let cap: Duration = .seconds(30)
    private var current = Backoff.initial

    public init() {}

    /// The delay to wait now; the one after it is twice as long (up to the cap).
    public mutating func next() -> Duration {
        let delay = current
        current = min(current * 2, Self.cap)
        return delay
    }

    /// Starts over at `initial`: the situation changed, so the next check should come soon.
    public mutating func reset() {
        current = Self.initial
    }
}
