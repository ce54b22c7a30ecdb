import Foundation
@testable import NetprobeWire
@testable import NetprobeVerdict
@testable import NetprobeOutput
@testable import NetprobeSystem
@testable import NetprobeNetwork
@testable import NetprobeCheck
import Testing

/// The link's owners are asked over one connection per checker, inside each check's deadline:
/// real checks (scripted probes) whose owners are asked over real D-Bus, on a bus the test
/// makes, never the machine's.
@Suite struct OwnerBusTests {
    /// eth0 and wlan0 behind systemd-resolved's stub: the stub's owner is asked, and every
    /// path's plan reads its links' leases, owners first.
    static let stubbed: PathSnapshot = {
        var snapshot = Kit.twoUplinks
        snapshot.dns = DNSConfiguration(servers: ["127.0.0.53"], localStub: true, source: "test")
        return snapshot
    }()

    /// Every owner asked, over `bus`; no lease file anywhere.
    static func options(timeout: Double = 8, allPaths: Bool = true) -> CheckOptions {
        var options = Kit.options(timeout: timeout, allPaths: allPaths, families: [.ipv4])
        options.leases.owners = .all
        return options
    }

    static func checker(_ bus: OwnerBus) -> Checker {
        let checker = Kit.checker(stubbed, ScriptedRunner { _, _ in Kit.ok(10) })
        checker.ownerBus = bus
        checker.tracksLeases = true
        return checker
    }

    /// The socket of a broker that accepts every connection (the kernel's backlog does) and
    /// never says a word: dbus.socket while dbus-daemon starts, or a wedged broker.
    @Test func aBrokerThatNeverAnswersIsGivenUpInsideTheDeadline() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path + "/system_bus_socket"
        let listener = try #require(MuteListener(path: path))
        defer { listener.close() }
        let bus = OwnerBus(address: "unix:path=\(path)")
        let checker = Self.checker(bus)
        let options = Self.options(timeout: 3)
        let report = try checker.run(options)
        #expect(report.verdict == .online && report.reason == .probesValidated)
        #expect(bus.isSilent(OwnerBus.broker))
        // One connection tried for the stub's owner, the four plans and the lease facts: the
        // silent broker is not asked again.
        #expect(bus.connections == 1)
        // The deadline guard: sd-bus's own wait for a Hello is 90 s.
        #expect(report.durationMs < options.timeout * 1000)
        // Between checks too (a lease directory changed): nothing asked of it.
        _ = checker.leaseMoved(options)
        #expect(bus.connections == 1)
    }

    /// No broker at all: the check goes on from the files, and tries the broker once a check.
    @Test func noBrokerIsTriedOnceACheck() throws {
        let directory = try TemporaryDirectory()
        let bus = OwnerBus(address: "unix:path=\(directory.path)/none")
        let checker = Self.checker(bus)
        let first = try checker.run(Self.options())
        #expect(first.verdict == .online)
        #expect(bus.connections == 1 && !bus.isSilent(OwnerBus.broker))
        _ = try checker.run(Self.options())
        #expect(bus.connections == 2)
    }

    /// A real broker (dbus-daemon) with none of the owners on it: every question is answered
    /// "no such name" at once. Two checks of four paths, the stub's owner and the lease facts
    /// between them: the broker saw one connection.
    @Test func oneConnectionPerChecker() throws {
        let broker = try PrivateBroker()
        defer { broker.stop() }
        let bus = OwnerBus(address: broker.address)
        let checker = Self.checker(bus)
        let options = Self.options()
        #expect(try checker.run(options).verdict == .online)
        _ = checker.leaseMoved(options)
        #expect(try checker.run(options).verdict == .online)
        #expect(bus.connections == 1)
        #expect(try broker.connectionsSeen() == 1)
        // A one-shot check has a checker of its own: one more.
        #expect(try Self.checker(OwnerBus(address: broker.address)).run(options).verdict == .online)
        #expect(try broker.connectionsSeen() == 2)
    }

    /// The broker went away between checks: the next check connects again.
    @Test func aBrokenConnectionIsOpenedAgain() throws {
        var broker = try PrivateBroker()
        let bus = OwnerBus(address: broker.address)
        let checker = Self.checker(bus)
        _ = try checker.run(Self.options(allPaths: false))
        #expect(bus.connections == 1)
        broker.stop()
        broker = try PrivateBroker(directory: broker.directory)
        defer { broker.stop() }
        #expect(try checker.run(Self.options(allPaths: false)).verdict == .online)
        #expect(bus.connections == 2)
        let seen = try broker.connectionsSeen()
        #expect(seen == 1)
    }

    /// NetworkManager owns its name on a real broker and never answers (bus_black_hole.py):
    /// asked once, given up within the check, and not asked again between checks or by the
    /// next check (within the minute), though every plan and the lease facts read leases.
    @Test func aNetworkManagerThatNeverAnswersIsAskedOnce() throws {
        let broker = try PrivateBroker()
        defer { broker.stop() }
        let name = "org.freedesktop.NetworkManager"
        let script = FixtureProcess.supportDirectory.appendingPathComponent("bus_black_hole.py").path
        let hole = try FixtureProcess(["python3", script, broker.socket, name])
        defer { hole.stop() }
        #expect(hole.nextLine() == "owned")
        let bus = OwnerBus(address: broker.address)
        let checker = Self.checker(bus)
        let options = Self.options(timeout: 3)
        let report = try checker.run(options)
        #expect(report.verdict == .online && report.reason == .probesValidated)
        #expect(bus.isSilent(name) && !bus.isSilent(OwnerBus.broker))
        #expect(report.durationMs < options.timeout * 1000)
        _ = checker.leaseMoved(options)
        #expect(try checker.run(options).verdict == .online)
        #expect(bus.connections == 1)
        // A call of the test's own, after the checks': every call before it has arrived.
        guard case .opened(let own) = SystemBus.connect(address: broker.address, within: .seconds(10)) else {
            Issue.record("the private broker did not take the test's connection")
            return
        }
        _ = own.call(name, "/", "org.freedesktop.DBus.Peer", "Barrier", within: .milliseconds(10))
        var calls: [String] = []
        while let line = hole.nextLine(), line != "call Barrier" { calls.append(line) }
        #expect(calls == ["call GetDeviceByIpIface"])
    }

    /// A watch: the silent broker is not asked for a minute, then once, and each further
    /// silence doubles the pause. The test moves the clock silences are judged by.
    @Test func aSilentBrokerIsPausedAMinuteThenDoubling() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path + "/system_bus_socket"
        let listener = try #require(MuteListener(path: path))
        defer { listener.close() }
        let clock = MovedClock()
        let bus = OwnerBus(address: "unix:path=\(path)", clock: clock.now)
        /// One check at `offset` from the start, asking NetworkManager twice; the connections tried.
        func check(at offset: Duration) -> Int {
            clock.offset = offset
            bus.beginCheck(deadline: .now + .seconds(5))
            defer { bus.endCheck() }
            for _ in 0..<2 {
                #expect(bus.call("org.freedesktop.NetworkManager", "/", "org.freedesktop.DBus.Peer", "Ping",
                                 limit: .milliseconds(50)) == nil)
            }
            return bus.connections
        }
        #expect(check(at: .zero) == 1)
        #expect(check(at: .seconds(59)) == 1)
        #expect(check(at: .seconds(61)) == 2)
        #expect(check(at: .seconds(61 + 119)) == 2)
        #expect(check(at: .seconds(61 + 121)) == 3)
        #expect(check(at: .seconds(61 + 121 + 239)) == 3)
        #expect(check(at: .seconds(61 + 121 + 241)) == 4)
        #expect(bus.isSilent(OwnerBus.broker))
    }
}

/// A clock moved by the test, on top of the real one.
final class MovedClock: @unchecked Sendable {
    private let start = ContinuousClock.now
    private let lock = NSLock()
    private var moved: Duration = .zero
    var offset: Duration {
        get { lock.withLock { moved } }
        set { lock.withLock { moved = newValue } }
    }
    @Sendable func now() -> ContinuousClock.Instant { start + offset }
}
