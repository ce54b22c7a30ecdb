import Glibc

/// Reads small text files (resolv.conf, sysfs attributes) without trusting
/// their size: at most `limit` bytes are read, so a huge or endless file
/// (a FIFO, /dev/zero) cannot stall or exhaust us.
public enum BoundedFile {
    /// The first `limit` bytes of a file, or nil when it cannot be opened (or, with
    /// `regularFileOnly`, is not a regular file: DHCP state files are never devices).
    public static func bytes(_ path: String, limit: Int = 64 * 1024, regularFileOnly: Bool = false) -> [UInt8]? {
        let fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        if regularFileOnly {
            var info = stat()
            guard fstat(fd, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else { return nil }
        }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        while bytes.count < limit {
            let wanted = min(chunk.count, limit - bytes.count)
            let count = chunk.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, wanted) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { break }
            bytes.append(contentsOf: chunk[0..<count])
        }
        return bytes
    }

    public static func read(_ path: String, limit: Int = 64 * 1024) -> String? {
        bytes(path, limit: limit).map { String(decoding: $0, as: UTF8.self) }
    }

    static func isDirectory(_ path: String) -> Bool {
        var info = stat()
        return stat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFDIR
    }
}
