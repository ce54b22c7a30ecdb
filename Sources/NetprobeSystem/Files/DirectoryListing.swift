import Glibc
import NetprobeWire
import NetprobeVerdict

/// The one way netprobe lists a directory (the CA directory's hash links, DHCP clients' lease
/// directories): readdir on an O_DIRECTORY open, so a FIFO or a file is an empty listing, not a
/// hang, and no error is built for a directory that is not there.
public enum DirectoryListing {
    /// Calls `visit` with each name but `.` and `..`, in the directory's own order, until it
    /// returns false or `limit` names were seen. False when the directory cannot be read.
    @discardableResult
    public static func forEachName(in path: String, limit: Int = .max, _ visit: (String) -> Bool) -> Bool {
        guard let directory = opendir(path) else { return false }
        defer { closedir(directory) }
        var seen = 0
        while seen < limit, let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            guard name != "." && name != ".." else { continue }
            seen += 1
            guard visit(name) else { break }
        }
        return true
    }

    /// The names in a directory, without `.` and `..`, in no particular order; empty when it
    /// cannot be read. At most `limit`: a directory is state, not input to trust.
    public static func names(in path: String, limit: Int = 4096) -> [String] {
        var names: [String] = []
        forEachName(in: path, limit: limit) { names.append($0); return true }
        return names
    }
}
