import Foundation
@testable import NetprobeWire
@testable import NetprobeVerdict
@testable import NetprobeOutput
@testable import NetprobeReport
@testable import NetprobeSystem
@testable import NetprobeNetwork
@testable import NetprobeCheck
@testable import NetprobeWatch
import Testing

/// PathMonitor against real kernel events. The monitor is created and used on
/// a thread inside the namespace, so it only hears that namespace's changes.
/// Timing assertions are deliberately loose: CI machines are slow and shared.
@Suite("PathMonitor in a network namespace")
struct PathMonitorTests {
    /// A link with carrier and no IPv6 autoconfiguration, so the namespace falls quiet quickly.
    private func addQuietLink(_ ns: NetworkNamespace) throws {
        try ns.ip("link", "add", "d0", "type", "veth", "peer", "name", "d0p")
        try ns.ip("link", "set", "d0", "addrgenmode", "none")
        try ns.ip("link", "set", "d0p", "addrgenmode", "none")
        try ns.ip("link", "set", "d0p", "up")
        try ns.ip("link", "set", "d0", "up")
        try ns.ip("addr", "add", "198.51.100.10/24", "dev", "d0")
    }

    /// Consumes leftover events until a quiet period; false if it never settles.
    private static func settle(_ monitor: PathMonitor) -> Bool {
        for _ in 0..<20 where monitor.waitForChange(timeout: .milliseconds(300)) == .timeout {
            return true
        }
        return false
    }

    @Test func quietNamespaceTimesOut() async throws {
        let (settled, event, elapsed) = try await withNamespace { ns in
            try addQuietLink(ns)
            return try await ns.inside {
                let monitor = try PathMonitor()
                let settled = Self.settle(monitor)
                let start = ContinuousClock.now
                let event = monitor.waitForChange(timeout: .milliseconds(300))
                return (settled, event, ContinuousClock.now - start)
            }
        }
        #expect(settled)
        #expect(event == .timeout)
        #expect(elapsed >= .milliseconds(250))  // it really waited
    }

    @Test func addressRouteRuleAndLinkChangesWakeTheMonitor() async throws {
        let results = try await withNamespace { ns in
            try addQuietLink(ns)
            return try await ns.inside {
                let monitor = try PathMonitor()
                #expect(monitor.fileDescriptor >= 0)
                #expect(Self.settle(monitor))
                let changes: [[String]] = [
                    ["addr", "add", "2001:db8:1::10/64", "dev", "d0", "nodad"],
                    ["route", "add", "default", "via", "198.51.100.1", "dev", "d0"],
                    // Policy rules decide the kernel's route answer as much as the routes do.
                    ["rule", "add", "pref", "100", "lookup", "100"],
                    ["-6", "rule", "add", "pref", "100", "lookup", "100"],
                    ["link", "set", "d0", "down"],
                ]
                return try changes.map { change in
                    try Command.run(Command.ipPath, ["-n", ns.name] + change)
                    let start = ContinuousClock.now
                    let event = monitor.waitForChange(timeout: .seconds(10))
                    return (change.joined(separator: " "), event, ContinuousClock.now - start)
                }
            }
        }
        #expect(results.count == 5)
        for (change, event, elapsed) in results {
            #expect(event == .changed, "\(change)")
            #expect(elapsed < .seconds(5), "\(change)")
        }
    }

    /// With a tiny receive buffer a burst overflows it: the monitor must say
    /// .overflow (resynchronise), and keep working afterwards.
    @Test func lostEventsAreReportedAsOverflow() async throws {
        let (first, afterwards) = try await withNamespace { ns in
            try addQuietLink(ns)
            return try await ns.inside {
                let monitor = try PathMonitor(receiveBufferBytes: 4096)
                #expect(Self.settle(monitor))
                try ns.ipBatch(Array(repeating: ["link set d0 down", "link set d0 up"], count: 100).flatMap { $0 })
                let first = monitor.waitForChange(timeout: .seconds(5))
                _ = Self.settle(monitor)
                try ns.ip("addr", "add", "203.0.113.10/24", "dev", "d0")
                return (first, monitor.waitForChange(timeout: .seconds(5)))
            }
        }
        #expect(first == .overflow)
        #expect(afterwards == .changed)
    }

    /// The socket belongs to its namespace: changes elsewhere do not wake it.
    @Test func changesInAnotherNamespaceAreNotSeen() async throws {
        let event = try await withNamespace { watched in
            try await withNamespace { other in
                try addQuietLink(watched)
                return try await watched.inside {
                    let monitor = try PathMonitor()
                    #expect(Self.settle(monitor))
                    try other.ip("link", "add", "x0", "type", "veth", "peer", "name", "x0p")
                    try other.ip("link", "set", "x0", "up")
                    return monitor.waitForChange(timeout: .milliseconds(500))
                }
            }
        }
        #expect(event == .timeout)
    }
}
