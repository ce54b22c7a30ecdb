import Glibc
import NetprobeCore

/// Reads small text files (resolv.conf, sysfs attributes, DHCP state) without trusting
/// them: through CheckedFile, so only a regular file is read, the open never blocks (a FIFO)
/// and at most `limit` bytes are read whatever size the file claims (/proc says 0).
public enum BoundedFile {
    /// The first `limit` bytes of a regular file, or nil when it cannot be opened or is not a
    /// regular file (a directory, device, FIFO or socket is refused without blocking).
    /// `followSymlinks: false` opens with O_NOFOLLOW, so a symbolic link is refused too: for
    /// state files that their writer never makes links (DHCP leases, networkd's link state),
    /// where a link could only point the read somewhere else. resolv.conf is often a link
    /// (systemd-resolved's stub file) and is read with the default.
    public static func bytes(_ path: String, limit: Int = 64 * 1024, followSymlinks: Bool = true) -> [UInt8]? {
        try? CheckedFile.read(path, limit: limit, overflow: .truncate, followSymlinks: followSymlinks)
    }

    public static func read(_ path: String, limit: Int = 64 * 1024) -> String? {
        bytes(path, limit: limit).map { String(decoding: $0, as: UTF8.self) }
    }

    /// When the file (a symbolic link's target, as the read of it is) was last written, in
    /// seconds since the epoch; nil when it cannot be examined.
    public static func modificationTime(_ path: String) -> Double? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        return Double(info.st_mtim.tv_sec) + Double(info.st_mtim.tv_nsec) / 1e9
    }

    static func isDirectory(_ path: String) -> Bool {
        var info = stat()
        return stat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFDIR
    }
}
