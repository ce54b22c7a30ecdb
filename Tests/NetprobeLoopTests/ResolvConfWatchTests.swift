import Foundation
import Glibc
import NetprobeSystem
import Testing

/// The resolv.conf watch is never deaf: written in place, replaced by a rename, or after the
/// kernel lost events.
@Suite struct ResolvConfWatchTests {
    @Test func inPlaceRenamedAndOverflowedAreAllChanges() throws {
        let directory = try TemporaryDirectory()
        let file = directory.path + "/resolv.conf"
        try "nameserver 198.51.100.1\n".write(toFile: file, atomically: false, encoding: .utf8)
        let watch = try #require(ResolvConfWatch(path: file))
        #expect(!watch.consume())
        try "nameserver 198.51.100.2\n".write(toFile: file, atomically: false, encoding: .utf8)
        #expect(watch.consume())
        // A new file renamed over it, as resolvconf does; then the new one written in place.
        try "nameserver 198.51.100.3\n".write(toFile: file, atomically: true, encoding: .utf8)
        #expect(watch.consume())
        try "nameserver 198.51.100.4\n".write(toFile: file, atomically: false, encoding: .utf8)
        #expect(watch.consume())
        // Events lost: they may have been the file's, so it counts as a change, and the watch goes on.
        InotifyQueue.overflow(in: directory.path)
        #expect(watch.consume())
        try "nameserver 198.51.100.5\n".write(toFile: file, atomically: false, encoding: .utf8)
        #expect(watch.consume())
    }
}

/// Makes the kernel drop inotify events: more than it queues (max_queued_events, 16384 by
/// default) in `directory`, two per new empty file (IN_CREATE, IN_CLOSE_WRITE), never merged
/// (each file has another name).
enum InotifyQueue {
    static func overflow(in directory: String) {
        let queued = (try? String(contentsOfFile: "/proc/sys/fs/inotify/max_queued_events", encoding: .utf8))
            .flatMap { Int($0.split(whereSeparator: \.isWhitespace).first ?? "") } ?? 16384
        for index in 0...(queued / 2 + 1) {
            let fd = open("\(directory)/flood\(index)", O_CREAT | O_WRONLY | O_CLOEXEC, 0o644)
            #expect(fd >= 0)
            close(fd)
        }
    }
}

/// A directory of the test's own, removed with everything in it when the test is done.
final class TemporaryDirectory {
    let path: String
    init() throws {
        path = FileManager.default.temporaryDirectory.appendingPathComponent("np-dir-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }
    deinit { try? FileManager.default.removeItem(atPath: path) }

    /// A link state file at `name` (relative to the directory), written whole.
    func write(_ name: String) throws {
        try "DNS=198.51.100.53\n".write(toFile: "\(path)/\(name)", atomically: true, encoding: .utf8)
    }
}
