import Glibc
import SystemPackage

/// The one way netprobe reads a file it is pointed at. Opened once (so what is checked is
/// what is read: no stat-then-open race), non-blocking (a FIFO cannot hang the open) and
/// close-on-exec (a hook never inherits it); then `fstat` on the open descriptor: only a
/// regular file is read, and one whose size is over the cap is refused before a byte is read.
/// The read itself stops at the cap whatever the size said: files under /proc say 0.
///
/// Three uses, one reader: `read` for a file whose every byte matters (probes.json: too large
/// is an error), `bytes`/`text` for state other programs leave (resolv.conf, sysfs, leases: the
/// first `limit` bytes, nil when absent), and `Stream` for input of any length read in chunks
/// (`netprobe report`'s logs, which may also be pipes).
public enum CheckedFile {
    public enum Failure: Error, Sendable, Equatable, CustomStringConvertible {
        case cannotOpen(Errno)
        case notRegularFile(Kind)
        case tooLarge(limit: Int)
        case cannotRead(Errno)

        public var description: String {
            switch self {
            case .cannotOpen(let errno): return "cannot open: \(errno.description)"
            case .notRegularFile(let kind): return "not a regular file (\(kind.rawValue))"
            case .tooLarge(let limit): return "larger than \(limit) bytes"
            case .cannotRead(let errno): return "cannot read: \(errno.description)"
            }
        }
    }

    /// What a path that is not a regular file turned out to be.
    public enum Kind: String, Sendable, Equatable {
        case directory = "a directory"
        case device = "a device"
        case pipe = "a pipe"
        case socket = "a socket"
        case symbolicLink = "a symbolic link"
        case other = "not a file"
    }

    /// What to do with bytes beyond the cap.
    public enum Overflow: Sendable {
        /// The file is refused (`tooLarge`): a configuration cut short is a different configuration.
        case refuse
        /// The first `limit` bytes are the answer (a sysfs attribute, resolv.conf).
        case truncate
    }

    /// At most `limit` bytes of the regular file at `path`. `followSymlinks: false` adds
    /// O_NOFOLLOW for files that are never links (state files in a directory netprobe names).
    public static func read(_ path: String, limit: Int, overflow: Overflow = .refuse,
                            followSymlinks: Bool = true) throws(Failure) -> [UInt8] {
        let descriptor = try open(path, followSymlinks: followSymlinks)
        defer { try? descriptor.close() }
        let size = try check(descriptor)
        if overflow == .refuse, size > Int64(limit) { throw .tooLarge(limit: limit) }
        // One byte past the cap tells "exactly the cap" from "more".
        let wanted = overflow == .refuse ? limit + 1 : limit
        var bytes: [UInt8] = []
        bytes.reserveCapacity(min(wanted, max(Int(clamping: size) + 1, 512)))
        do {
            try withUnsafeTemporaryAllocation(byteCount: 16 * 1024, alignment: 1) { chunk in
                // Whole chunks, even near the cap: some files refuse odd sizes (/proc/self/pagemap
                // reads in units of 8 bytes and answers EINVAL to a read of one).
                while bytes.count < wanted {
                    let count = try descriptor.read(into: chunk, retryOnInterrupt: true)
                    if count == 0 { break }
                    bytes.append(contentsOf: chunk[..<min(count, wanted - bytes.count)])
                }
            }
        } catch {
            throw .cannotRead(error as? Errno ?? .ioError)
        }
        if overflow == .refuse, bytes.count > limit { throw .tooLarge(limit: limit) }
        return bytes
    }

    /// Checks without reading: for a file handed by path to a library that will open it itself
    /// (a CA bundle for libcurl). What it opens can still change after this; what this rules
    /// out is the honest mistake: a directory, a FIFO, a device, a huge file.
    /// Returns the size `fstat` reported.
    @discardableResult
    public static func check(_ path: String, limit: Int) throws(Failure) -> Int64 {
        let descriptor = try open(path, followSymlinks: true)
        defer { try? descriptor.close() }
        let size = try check(descriptor)
        if size > Int64(limit) { throw .tooLarge(limit: limit) }
        return size
    }

    private static func open(_ path: String, followSymlinks: Bool) throws(Failure) -> FileDescriptor {
        var options: FileDescriptor.OpenOptions = [.nonBlocking, .closeOnExec]
        if !followSymlinks { options.insert(.noFollow) }
        do {
            // The C-string overload: a FilePath parses and re-checks its components, which costs
            // seconds on a hostile path of thousands of components in a debug build.
            return try path.withCString { try FileDescriptor.open($0, .readOnly, options: options, retryOnInterrupt: true) }
        } catch {
            // O_NOFOLLOW on a link fails with ELOOP: say what it was.
            if !followSymlinks, error as? Errno == .tooManySymbolicLinkLevels { throw .notRegularFile(.symbolicLink) }
            throw .cannotOpen(error as? Errno ?? .noSuchFileOrDirectory)
        }
    }

    /// The first `limit` bytes of a regular file, or nil when it cannot be opened or is not a
    /// regular file (a directory, device, FIFO or socket is refused without blocking).
    /// `followSymlinks: false` opens with O_NOFOLLOW, so a symbolic link is refused too: for
    /// state files that their writer never makes links (DHCP leases, networkd's link state),
    /// where a link could only point the read somewhere else. resolv.conf is often a link
    /// (systemd-resolved's stub file) and is read with the default.
    public static func bytes(_ path: String, limit: Int = 64 * 1024, followSymlinks: Bool = true) -> [UInt8]? {
        try? read(path, limit: limit, overflow: .truncate, followSymlinks: followSymlinks)
    }

    /// `bytes` as text (invalid UTF-8 repaired, never refused).
    public static func text(_ path: String, limit: Int = 64 * 1024, followSymlinks: Bool = true) -> String? {
        bytes(path, limit: limit, followSymlinks: followSymlinks).map { String(decoding: $0, as: UTF8.self) }
    }

    /// When the file (a symbolic link's target, as the read of it is) was last written, in
    /// seconds since the epoch; nil when it cannot be examined.
    public static func modificationTime(_ path: String) -> Double? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        return Double(info.st_mtim.tv_sec) + Double(info.st_mtim.tv_nsec) / 1e9
    }

    public static func isDirectory(_ path: String) -> Bool {
        var info = stat()
        return stat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFDIR
    }

    /// Input of any length, read in chunks: a regular file, a pipe or a terminal, never a
    /// directory. Blocking reads (a pipe's writer is waited for), EINTR retried.
    public final class Stream {
        private let descriptor: FileDescriptor
        private let owned: Bool

        /// Standard input, not closed by this stream.
        public static func standardInput() -> Stream { Stream(descriptor: .standardInput, owned: false) }

        public convenience init(path: String) throws(Failure) {
            let opened: FileDescriptor
            do {
                opened = try path.withCString { try FileDescriptor.open($0, .readOnly, options: [.closeOnExec], retryOnInterrupt: true) }
            } catch {
                throw .cannotOpen(error as? Errno ?? .noSuchFileOrDirectory)
            }
            if let status = try? opened.stat(retryOnInterrupt: true), status.type == .directory {
                try? opened.close()
                throw .notRegularFile(.directory)
            }
            self.init(descriptor: opened, owned: true)
        }

        private init(descriptor: FileDescriptor, owned: Bool) {
            self.descriptor = descriptor
            self.owned = owned
        }

        /// Fills the start of `buffer`; 0 at the end of the input.
        public func read(into buffer: UnsafeMutableRawBufferPointer) throws(Failure) -> Int {
            do {
                return try descriptor.read(into: buffer, retryOnInterrupt: true)
            } catch {
                throw .cannotRead(error as? Errno ?? .ioError)
            }
        }

        deinit {
            if owned { try? descriptor.close() }
        }
    }

    /// The size `fstat` reports for the open descriptor, which must be a regular file.
    private static func check(_ descriptor: FileDescriptor) throws(Failure) -> Int64 {
        let status: Stat
        do {
            status = try descriptor.stat(retryOnInterrupt: true)
        } catch {
            throw .cannotRead(error)
        }
        switch status.type {
        case .regular: return status.size
        case .directory: throw .notRegularFile(.directory)
        case .characterSpecial, .blockSpecial: throw .notRegularFile(.device)
        case .fifo: throw .notRegularFile(.pipe)
        case .socket: throw .notRegularFile(.socket)
        default: throw .notRegularFile(.other)
        }
    }
}
