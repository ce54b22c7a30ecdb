import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Waits for something to become true of a file or a directory, woken by the kernel's
/// inotify events on it (a file created, written, closed, moved in; a file opened), never by a
/// timer. The condition is evaluated once the watch is in place (so an
/// event that came before cannot be missed), then again after every batch of events, until
/// it holds or the deadline passes.
enum FileEvents {
    /// Something written in `directory`: a file created, modified, closed after writing, moved in.
    static let written = UInt32(IN_CREATE) | UInt32(IN_MODIFY) | UInt32(IN_CLOSE_WRITE) | UInt32(IN_MOVED_TO)
    /// A file opened (in a watched directory: any of its files).
    static let opened = UInt32(IN_OPEN)

    static func until(_ path: String, events: UInt32 = written, timeout: Double, _ condition: () -> Bool) -> Bool {
        let watch = inotify_init1(Int32(O_CLOEXEC))
        precondition(watch >= 0, "inotify_init1: errno \(errno)")
        defer { close(watch) }
        precondition(inotify_add_watch(watch, path, events) >= 0, "inotify_add_watch \(path): errno \(errno)")
        let deadline = Date().addingTimeInterval(timeout)
        var buffer = [UInt8](repeating: 0, count: 8192)
        while !condition() {
            let left = deadline.timeIntervalSinceNow
            if left <= 0 { return false }
            var ready = pollfd(fd: watch, events: Int16(POLLIN), revents: 0)
            if poll(&ready, 1, Int32((left * 1000).rounded(.up))) > 0 {
                _ = buffer.withUnsafeMutableBytes { read(watch, $0.baseAddress, $0.count) }  // the batch: its content does not matter
            }
        }
        return true
    }
}
