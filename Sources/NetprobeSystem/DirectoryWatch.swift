import Glibc
import NetprobeWire
import NetprobeVerdict

/// Wakes the caller when a file in one of a few directories is written, replaced or removed:
/// the directories where DHCP and RA clients record leases and link state (`LeaseReader`), so
/// that a portal URI or a resolver announced on a renewal is read at once instead of at the
/// next timer. A client writes in place (dhclient appends, `printf >`) or writes a new file and
/// renames it over the old (networkd); both are seen. Events are not decoded beyond what keeps
/// the watches alive: any of them means "read the files again", which the caller does to tell
/// whether anything it uses changed.
///
/// It never goes deaf. A directory that does not exist yet (a DHCP client installed or first
/// run after watch started, /run/systemd/netif before networkd) is watched through its nearest
/// existing parent and added when it appears; only the creation of the next directory on the
/// way to it wakes the caller, not every directory made in that parent (/var, /run). One that is removed, or moved away, ends its
/// watch (the kernel says IN_IGNORED): it is watched through its parent again until it is back.
/// A queue overflow (IN_Q_OVERFLOW: events were lost) arms every watch anew and counts as a
/// change, so the caller reads every file again.
public final class DirectoryWatch {
    private let descriptor: Int32
    private var buffer = [UInt8](repeating: 0, count: 4096)
    /// The directories asked for, in order, each once.
    public let directories: [String]
    /// Each watched path's watch: the directories that exist, and the nearest existing parent of each that does not.
    private var watches: [String: Int32] = [:]
    /// The watches on parents only, each with the names of the directories in it that lead to a
    /// wanted one: a file created there is none of ours, and only these directories are.
    private var parents: [Int32: Set<String>] = [:]
    /// Watches this object ended itself: the kernel's IN_IGNORED for them is no news.
    private var retired: Set<Int32> = []
    /// How many times the kernel's event queue overflowed (each answered by a full re-read).
    public private(set) var overflows = 0

    /// A directory's own watch: its files written, replaced, removed; itself removed or moved.
    static let contentMask = UInt32(IN_CLOSE_WRITE | IN_MODIFY | IN_MOVED_TO | IN_MOVED_FROM | IN_DELETE | IN_CREATE)
        | UInt32(IN_DELETE_SELF | IN_MOVE_SELF) | UInt32(IN_ONLYDIR)
    /// A parent's watch, for a directory that is not there: something appears in it, or it goes itself.
    static let parentMask = UInt32(IN_CREATE | IN_MOVED_TO) | UInt32(IN_DELETE_SELF | IN_MOVE_SELF) | UInt32(IN_ONLYDIR)

    /// nil when inotify is unavailable (or nothing at all can be watched).
    public init?(_ directories: [String]) {
        let descriptor = inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
        guard descriptor >= 0 else { return nil }
        self.descriptor = descriptor
        var seen: Set<String> = []
        self.directories = directories.filter { !$0.isEmpty && seen.insert($0).inserted }
        arm()
        if watches.isEmpty {
            close(descriptor)
            return nil
        }
    }

    deinit {
        close(descriptor)
    }

    /// Readable when events are pending; `consume` them.
    public var fileDescriptor: Int32 { descriptor }

    /// The directories asked for that exist and are watched themselves.
    public var watched: [String] {
        directories.filter { watches[$0].map { parents[$0] == nil } ?? false }
    }

    /// Drains what is queued; true when anything was that can concern the files (a parent's
    /// unrelated files are not). Watches lost or needed are re-armed on the way.
    public func consume() -> Bool {
        var any = false
        var rearm = false
        while true {
            let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count > 0 {
                let (concerns, lost) = Self.scan(buffer[..<count], parents: parents, retired: &retired)
                any = any || concerns
                rearm = rearm || lost
                if lost, Self.overflowed(buffer[..<count]) { overflows += 1 }
                continue
            }
            if count < 0 && errno == EINTR { continue }
            break  // EAGAIN: empty
        }
        if rearm { arm() }
        return any
    }

    /// Reads the events in `bytes` (struct inotify_event, one after the other): whether any
    /// concerns the files, and whether the watches must be armed again (a directory on the way
    /// came or went, a watch ended, events were lost). `parents` names, for each watch on a
    /// parent, the directories in it that lead to a wanted one.
    static func scan(_ bytes: ArraySlice<UInt8>, parents: [Int32: Set<String>],
                     retired: inout Set<Int32>) -> (concerns: Bool, rearm: Bool) {
        var concerns = false, rearm = false
        forEachEvent(bytes) { watch, mask, name in
            if mask & UInt32(IN_IGNORED) != 0, retired.remove(watch) != nil { return }
            let watchEnded = mask & (UInt32(IN_IGNORED | IN_Q_OVERFLOW) | UInt32(IN_DELETE_SELF | IN_MOVE_SELF)) != 0
            let directoryMoved = mask & UInt32(IN_ISDIR) != 0 && mask & UInt32(IN_CREATE | IN_MOVED_TO | IN_MOVED_FROM | IN_DELETE) != 0
            if let wanted = parents[watch] {
                // On a parent, only a directory on the way coming, or the parent going, matters.
                guard watchEnded || (directoryMoved && wanted.contains(name)) else { return }
                concerns = true
                rearm = true
                return
            }
            if directoryMoved || watchEnded { rearm = true }
            concerns = true
        }
        return (concerns, rearm)
    }

    static func overflowed(_ bytes: ArraySlice<UInt8>) -> Bool {
        var overflow = false
        forEachEvent(bytes) { _, mask, _ in if mask & UInt32(IN_Q_OVERFLOW) != 0 { overflow = true } }
        return overflow
    }

    /// The kernel writes whole events: a 16-byte header (wd, mask, cookie, len) and `len` bytes
    /// of name, NUL-padded (empty for an event on the watched directory itself).
    private static func forEachEvent(_ bytes: ArraySlice<UInt8>, _ body: (Int32, UInt32, String) -> Void) {
        bytes.withUnsafeBytes { raw in
            var offset = 0
            while offset + 16 <= raw.count {
                let watch = raw.loadUnaligned(fromByteOffset: offset, as: Int32.self)
                let mask = raw.loadUnaligned(fromByteOffset: offset + 4, as: UInt32.self)
                let nameLength = Int(raw.loadUnaligned(fromByteOffset: offset + 12, as: UInt32.self))
                let end = min(raw.count, offset + 16 + nameLength)
                let name = raw[(offset + 16)..<end].prefix { $0 != 0 }
                body(watch, mask, String(decoding: name, as: UTF8.self))
                offset += 16 + nameLength
            }
        }
    }

    /// Watches each directory that exists, and the nearest existing parent of each that does
    /// not; ends the watches no longer needed. Idempotent: a path watched already keeps its watch.
    private func arm() {
        var masks: [String: UInt32] = [:]
        var ways: [String: Set<String>] = [:]
        var order: [String] = []
        for directory in directories {
            var path = directory
            var mask = Self.contentMask
            var next: String?
            while !Self.isDirectory(path), let parent = Self.parent(of: path) {
                next = Self.lastComponent(of: path)
                path = parent
                mask = Self.parentMask
            }
            if masks[path] == nil { order.append(path) }
            masks[path, default: 0] |= mask
            if let next { ways[path, default: []].insert(next) }
        }
        var fresh: [String: Int32] = [:]
        var freshParents: [Int32: Set<String>] = [:]
        for path in order {
            let mask = masks[path]!
            let watch = inotify_add_watch(descriptor, path, mask)
            guard watch >= 0 else { continue }  // gone meanwhile: its parent's event arms it again
            fresh[path] = watch
            if mask & UInt32(IN_MODIFY) == 0 { freshParents[watch] = ways[path] ?? [] }
        }
        let kept = Set(fresh.values)
        for watch in Set(watches.values) where !kept.contains(watch) {
            // EINVAL when the kernel ended it already (and said so: nothing more will come).
            if inotify_rm_watch(descriptor, watch) == 0 { retired.insert(watch) }
        }
        watches = fresh
        parents = freshParents
    }

    /// The last component of a path ("links" of "/run/systemd/netif/links/").
    static func lastComponent(of path: String) -> String {
        var trimmed = Substring(path)
        while trimmed.count > 1, trimmed.hasSuffix("/") { trimmed = trimmed.dropLast() }
        return String(trimmed.split(separator: "/").last ?? trimmed)
    }

    private static func isDirectory(_ path: String) -> Bool {
        var info = stat()
        return stat(path, &info) == 0 && info.st_mode & S_IFMT == S_IFDIR
    }

    /// The path without its last component; nil at the root (or for a bare relative name).
    static func parent(of path: String) -> String? {
        var trimmed = Substring(path)
        while trimmed.count > 1, trimmed.hasSuffix("/") { trimmed = trimmed.dropLast() }
        guard let slash = trimmed.lastIndex(of: "/") else { return nil }
        if slash == trimmed.startIndex { return trimmed == "/" ? nil : "/" }
        return String(trimmed[..<slash])
    }
}
