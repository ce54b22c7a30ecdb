import Glibc
import NetprobeWire
import NetprobeVerdict

/// Wakes the caller when a file in one of a few directories is written, replaced or removed:
/// the directories where DHCP and RA clients record leases and link state (`LeaseReader`), so
/// that a portal URI or a resolver announced on a renewal is read at once instead of at the
/// next timer. A client writes in place (dhclient appends, `printf >`) or writes a new file and
/// renames it over the old (networkd); both are seen. Events are not decoded: any of them means
/// "read the files again", which the caller does to tell whether anything it uses changed.
///
/// Directories that do not exist when it starts are not watched (a DHCP client installed later
/// is seen at the next check's timer, as before).
public final class DirectoryWatch {
    private let descriptor: Int32
    private var buffer = [UInt8](repeating: 0, count: 4096)
    /// The directories being watched (those that existed).
    public private(set) var watched: [String] = []

    /// nil when inotify is unavailable or none of `directories` can be watched.
    public init?(_ directories: [String]) {
        let descriptor = inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
        guard descriptor >= 0 else { return nil }
        self.descriptor = descriptor
        let mask = UInt32(IN_CLOSE_WRITE | IN_MODIFY | IN_MOVED_TO | IN_MOVED_FROM | IN_DELETE) | UInt32(IN_ONLYDIR)
        for directory in Set(directories).sorted() where inotify_add_watch(descriptor, directory, mask) >= 0 {
            watched.append(directory)
        }
        if watched.isEmpty {
            close(descriptor)
            return nil
        }
    }

    deinit {
        close(descriptor)
    }

    /// Readable when events are pending; `consume` them.
    public var fileDescriptor: Int32 { descriptor }

    /// Drains what is queued; true when anything was.
    public func consume() -> Bool {
        var any = false
        while true {
            let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count > 0 {
                any = true
                continue
            }
            if count < 0 && errno == EINTR { continue }
            return any  // EAGAIN: empty
        }
    }
}
