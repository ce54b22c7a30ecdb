import Glibc
import NetprobeWire
import NetprobeVerdict

/// Wakes the caller when the resolver configuration may have changed. Netlink says nothing
/// about DNS, and a DHCP client writes resolv.conf after it adds the route: without this,
/// a check made the moment the route appeared would only learn of the servers at the
/// next timer.
///
/// Two inotify watches: the file itself (followed through a symlink: an in-place write, also
/// one through a bind mount as `ip netns exec` makes, or its target being replaced) and its
/// directory (a new file renamed over it, as resolvconf and NetworkManager do). Events are
/// not decoded beyond "which watch": any of them means "the next snapshot reads it again".
public final class ResolvConfWatch {
    private let descriptor: Int32
    private let path: String
    private var fileWatch: Int32 = -1
    private var buffer = [UInt8](repeating: 0, count: 4096)

    /// nil when inotify is unavailable (no instances left): the timers still re-check.
    public init?(path: String = "/etc/resolv.conf") {
        let descriptor = inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
        guard descriptor >= 0 else { return nil }
        self.descriptor = descriptor
        self.path = path
        let directory = path.lastIndex(of: "/").map { String(path[..<$0]) }.map { $0.isEmpty ? "/" : $0 } ?? "."
        _ = inotify_add_watch(descriptor, directory, UInt32(IN_CLOSE_WRITE | IN_MOVED_TO | IN_CREATE | IN_DELETE) | UInt32(IN_ONLYDIR))
        watchFile()
    }

    deinit {
        close(descriptor)
    }

    /// Readable when events are pending; `consume` them.
    public var fileDescriptor: Int32 { descriptor }

    /// Drains what is queued; true when something concerned the resolver configuration.
    public func consume() -> Bool {
        let name = path.split(separator: "/").last.map(String.init) ?? path
        var relevant = false
        var fileGone = false
        while true {
            let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            guard count > 0 else { break }
            buffer.withUnsafeBytes { bytes in
                var offset = 0
                let header = MemoryLayout<inotify_event>.size
                while offset + header <= count {
                    let event = bytes.loadUnaligned(fromByteOffset: offset, as: inotify_event.self)
                    let nameBytes = bytes[(offset + header)..<min(count, offset + header + Int(event.len))]
                    let eventName = String(decoding: nameBytes.prefix { $0 != 0 }, as: UTF8.self)
                    if event.mask & UInt32(IN_Q_OVERFLOW) != 0 {
                        // Events were lost: the file may have changed or been replaced.
                        relevant = true
                        fileGone = true
                    } else if event.wd == fileWatch {
                        relevant = true
                        // The watched inode went away (replaced, deleted): watch whatever the path names now.
                        if event.mask & UInt32(IN_IGNORED | IN_DELETE_SELF | IN_MOVE_SELF) != 0 { fileGone = true }
                    } else if eventName == name {
                        relevant = true
                        fileGone = true
                    }
                    offset += header + Int(event.len)
                }
            }
        }
        if fileGone { watchFile() }
        return relevant
    }

    private func watchFile() {
        if fileWatch >= 0 { _ = inotify_rm_watch(descriptor, fileWatch) }
        // Follows a symlink (systemd-resolved's stub file); -1 while the file is absent.
        fileWatch = inotify_add_watch(descriptor, path, UInt32(IN_CLOSE_WRITE | IN_ATTRIB | IN_DELETE_SELF | IN_MOVE_SELF))
    }
}
