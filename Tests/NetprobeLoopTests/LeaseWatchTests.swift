import Foundation
import Glibc
import NetprobeWire
import NetprobeVerdict
import NetprobeOutput
import NetprobeReport
import NetprobeSystem
import NetprobeNetwork
import NetprobeCheck
import NetprobeWatch
import Testing

/// What watch does when a lease or link state file changes: the directory watch wakes it, and
/// only a new portal URI or new resolvers for the verdict's link are a reason to check.
@Suite struct LeaseWatchTests {
    /// A networkd links directory of its own, and options that read it (eth0 is index 2 in Kit).
    final class Links {
        let directory: String
        init() throws {
            directory = FileManager.default.temporaryDirectory.appendingPathComponent("np-links-\(UUID().uuidString)").path
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        }
        deinit { try? FileManager.default.removeItem(atPath: directory) }

        /// networkd's way: a new file renamed over the old one.
        func write(index: Int, _ text: String) throws {
            let temporary = "\(directory)/.\(index).tmp"
            try text.write(toFile: temporary, atomically: false, encoding: .utf8)
            #expect(rename(temporary, "\(directory)/\(index)") == 0)
        }

        var options: CheckOptions {
            var options = Kit.options()
            options.leases = LeaseReader(networkdLinks: directory, dhcpcdDirectories: [], dhclientDirectories: [],
                                         networkManagerDirectory: "/nonexistent", networkManagerDevices: "/nonexistent")
            return options
        }
    }

    static func state(portal: String? = nil, dns: String? = nil, operstate: String = "routable") -> String {
        "ADMIN_STATE=configured\nOPER_STATE=\(operstate)\n" + (portal.map { "CAPTIVE_PORTAL=\($0)\n" } ?? "")
            + (dns.map { "DNS=\($0)\n" } ?? "")
    }

    @Test func onlyANewPortalURIOrNewResolversOfTheVerdictsLinkMove() throws {
        let links = try Links()
        try links.write(index: 2, Self.state(dns: "198.51.100.1"))
        let checker = Kit.checker(Kit.dualStack, ScriptedRunner { _, _ in Kit.ok(2) })
        checker.tracksLeases = true
        _ = try checker.run(links.options)
        #expect(!checker.leaseMoved(links.options))
        // Rewritten with nothing new for netprobe (networkd does this on every state change).
        try links.write(index: 2, Self.state(dns: "198.51.100.1", operstate: "degraded"))
        #expect(!checker.leaseMoved(links.options))
        // Another link's state: not the verdict's.
        try links.write(index: 3, Self.state(portal: "https://capport.example/api"))
        #expect(!checker.leaseMoved(links.options))
        // The verdict's link now announces an API: check at once.
        try links.write(index: 2, Self.state(portal: "https://capport.example/api", dns: "198.51.100.1"))
        #expect(checker.leaseMoved(links.options))
        _ = try checker.run(links.options)
        #expect(!checker.leaseMoved(links.options))
        // New resolvers for it.
        try links.write(index: 2, Self.state(portal: "https://capport.example/api", dns: "198.51.100.53"))
        #expect(checker.leaseMoved(links.options))
        // A checker that does not track leases (a one-shot check) never says so.
        let untracked = Kit.checker(Kit.dualStack, ScriptedRunner { _, _ in Kit.ok(2) })
        _ = try untracked.run(links.options)
        try links.write(index: 2, Self.state(portal: "https://other.example/api"))
        #expect(!untracked.leaseMoved(links.options))
    }

    @Test func aLeaseWakeChecksOnlyWhenItMoved() throws {
        let links = try Links()
        try links.write(index: 2, Self.state())
        let clock = ScriptedClock()
        let paths = ScriptedPaths(Kit.dualStack)
        let checker = Checker(source: paths, makeRunner: { ScriptedRunner { _, _ in Kit.ok(2) } })
        checker.tracksLeases = true
        let events = ScriptedWatchEvents([
            { _ in .leaseChanged },  // nothing new in the file: no check
            { _ in
                try? links.write(index: 2, Self.state(portal: "urn:ietf:params:capport:unrestricted"))
                return .leaseChanged
            },
        ])
        let handler = RecordingHandler(clock: clock)
        let loop = WatchLoop(checker: checker, events: events, options: links.options,
                             settings: WatchSettings(interval: .seconds(300), hold: .zero), clock: clock, jitter: .off, handler: handler)
        try loop.run()
        #expect(handler.checks.count == 2, "the start, and the check the new URI called for")
        #expect(handler.summary == ["start online start"])
    }

    @Test func theDirectoryWatchSeesWritesInPlaceRenamesAndRemovals() throws {
        let links = try Links()
        let watch = try #require(DirectoryWatch([links.directory, "/nonexistent/leases"]))
        #expect(watch.watched == [links.directory])
        #expect(!watch.consume())
        try links.write(index: 2, Self.state())
        #expect(watch.consume())
        #expect(!watch.consume())
        try Self.state(portal: "https://capport.example/api").write(toFile: "\(links.directory)/2", atomically: false, encoding: .utf8)
        #expect(watch.consume())
        #expect(unlink("\(links.directory)/2") == 0)
        #expect(watch.consume())
    }
}

/// The directory watch never goes deaf: directories that come later, go and come back, or
/// events the kernel lost.
@Suite struct DirectoryWatchLifeTests {
    @Test func aDirectoryThatAppearsLaterIsWatchedThroughItsParent() throws {
        let base = try TemporaryDirectory()
        let watch = try #require(DirectoryWatch(["\(base.path)/netif/links"]))
        #expect(watch.watched.isEmpty)
        // An unrelated file or directory in the parent is none of its business (/var and /run
        // see many come and go).
        try base.write("unrelated")
        #expect(!watch.consume())
        #expect(mkdir("\(base.path)/cache", 0o755) == 0)
        #expect(!watch.consume(), "another directory in the parent wakes no one")
        #expect(rename("\(base.path)/cache", "\(base.path)/cache.old") == 0)
        #expect(!watch.consume())
        #expect(mkdir("\(base.path)/netif", 0o755) == 0)
        #expect(watch.consume())
        #expect(watch.watched.isEmpty)
        #expect(mkdir("\(base.path)/netif/links", 0o755) == 0)
        #expect(watch.consume())
        #expect(watch.watched == ["\(base.path)/netif/links"])
        try base.write("netif/links/2")
        #expect(watch.consume())
    }

    @Test func aDirectoryRemovedAndRecreatedIsWatchedAgain() throws {
        let base = try TemporaryDirectory()
        let links = "\(base.path)/links"
        #expect(mkdir(links, 0o755) == 0)
        let watch = try #require(DirectoryWatch([links]))
        #expect(watch.watched == [links])
        try FileManager.default.removeItem(atPath: links)
        #expect(watch.consume())
        #expect(watch.watched.isEmpty)
        #expect(mkdir(links, 0o755) == 0)
        #expect(watch.consume())
        #expect(watch.watched == [links])
        try base.write("links/2")
        #expect(watch.consume())
        // Moved away and another put in its place: the new one is watched.
        #expect(rename(links, "\(links).old") == 0)
        #expect(mkdir(links, 0o755) == 0)
        #expect(watch.consume())
        #expect(watch.watched == [links])
        try base.write("links.old/3")
        #expect(!watch.consume(), "the moved-away directory is no longer watched")
        try base.write("links/3")
        #expect(watch.consume())
    }

    /// More events than the kernel queues (16384 by default): the overflow is a change, and
    /// the watches still work after it.
    @Test func anOverflowIsAChangeAndTheWatchGoesOn() throws {
        let base = try TemporaryDirectory()
        let watch = try #require(DirectoryWatch([base.path]))
        InotifyQueue.overflow(in: base.path)
        #expect(watch.consume())
        #expect(watch.overflows == 1)
        #expect(watch.watched == [base.path])
        try base.write("after")
        #expect(watch.consume())
    }
}
