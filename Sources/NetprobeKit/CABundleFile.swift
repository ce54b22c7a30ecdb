#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Checks a --ca-bundle before libcurl is told its path. libcurl (OpenSSL) opens and reads it
/// with blocking calls inside the transfer, outside any deadline we hold: a FIFO there hangs
/// the check past --timeout, a directory is a confusing TLS error, /dev/zero never ends.
/// So the file is opened once here non-blocking (a FIFO without a writer cannot hang the
/// open), and `fstat` on that descriptor must show a regular file of bounded size.
///
/// A minimal stand-in for the generic checked-open helper (CheckedFile, on swift-system)
/// that the JSON reader's branch adds; once it lands this becomes one call to it.
/// The path is still opened a second time by libcurl: a file swapped in between is the
/// administrator's own race, not the network's.
public enum CABundleFile {
    /// Debian's whole ca-certificates bundle is about 220 KB.
    public static let maxBytes = 16 * 1024 * 1024

    /// nil when the file is usable, else what is wrong with it (for "--ca-bundle PATH: ...").
    public static func problem(_ path: String) -> String? {
        let descriptor = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        guard descriptor >= 0 else { return "cannot open: \(String(cString: strerror(errno)))" }
        defer { close(descriptor) }
        var info = stat()
        guard fstat(descriptor, &info) == 0 else { return "cannot stat: \(String(cString: strerror(errno)))" }
        switch info.st_mode & S_IFMT {
        case S_IFREG: break
        case S_IFDIR: return "a directory, not a file"
        case S_IFIFO: return "a pipe, not a file"
        case S_IFCHR, S_IFBLK: return "a device, not a file"
        case S_IFSOCK: return "a socket, not a file"
        default: return "not a regular file"
        }
        if info.st_size > Int64(maxBytes) { return "larger than \(maxBytes) bytes: not a CA bundle" }
        if info.st_size == 0 { return "empty: no certificates" }
        return nil
    }
}
