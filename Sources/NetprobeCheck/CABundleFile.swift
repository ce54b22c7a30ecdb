import NetprobeWire
import NetprobeVerdict
import NetprobeOutput
import NetprobeSystem
import NetprobeNetwork

/// Checks a --ca-bundle before libcurl is told its path. libcurl (OpenSSL) opens and reads it
/// with blocking calls inside the transfer, outside any deadline we hold: a FIFO there hangs
/// the check past --timeout, a directory is a confusing TLS error, /dev/zero never ends.
/// So it goes through the one checked open (`CheckedFile.check`: non-blocking, `fstat` on the
/// descriptor, a regular file of bounded size), worded for the option. The path is still
/// opened a second time by libcurl: a file swapped in between is the administrator's own
/// race, not the network's.
public enum CABundleFile {
    /// Debian's whole ca-certificates bundle is about 220 KB.
    public static let maxBytes = 16 * 1024 * 1024

    /// nil when the file is usable, else what is wrong with it (for "--ca-bundle PATH: ...").
    public static func problem(_ path: String) -> String? {
        do {
            return try CheckedFile.check(path, limit: maxBytes) == 0 ? "empty: no certificates" : nil
        } catch {
            switch error {
            case .notRegularFile(.other): return "not a regular file"
            case .notRegularFile(let kind): return "\(kind.rawValue), not a file"
            case .tooLarge: return "larger than \(maxBytes) bytes: not a CA bundle"
            case .cannotOpen, .cannotRead: return error.description
            }
        }
    }
}
