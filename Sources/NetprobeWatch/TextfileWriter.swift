import Glibc
import NetprobeWire
import NetprobeVerdict
import NetprobeOutput
import NetprobeSystem
import NetprobeNetwork
import NetprobeCheck

public struct TextfileError: Error, CustomStringConvertible {
    public var operation: String
    public var path: String
    public var code: Int32
    public var description: String { "\(operation) \(path): \(String(cString: strerror(code)))" }
}

/// `watch --textfile PATH`: the metrics, replaced atomically for node_exporter's textfile
/// collector, which may read the file at any moment: a temporary file in the same directory
/// (rename(2) is atomic only within one file system), written whole, made 0644 (the collector
/// runs as another user), fsync'd (a crash leaves the old file or the new one, never an empty
/// one), then renamed over PATH. A reader sees the old content or the new, never a part.
/// Watch's own state (`NetworkMemoryStore`) is written the same way, readable by its owner only.
public struct TextfileWriter {
    public let path: String
    private let directory: String
    private let temporaryTemplate: String
    private let mode: mode_t

    public init(path: String) {
        self.init(path: path, mode: 0o644)
    }

    public init(path: String, mode: mode_t) {
        self.path = path
        self.mode = mode
        let slash = path.lastIndex(of: "/")
        directory = slash.map { $0 == path.startIndex ? "/" : String(path[..<$0]) } ?? "."
        let name = slash.map { String(path[path.index(after: $0)...]) } ?? path
        // A dot file: the collector reads only *.prom, so it never sees the temporary one.
        temporaryTemplate = (directory == "/" ? "" : directory) + "/." + name + ".XXXXXX"
    }

    public func write(_ text: String) throws(TextfileError) {
        var template = Array(temporaryTemplate.utf8CString)
        let fd = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard fd >= 0 else { throw TextfileError(operation: "create a temporary file in", path: directory, code: errno) }
        _ = fcntl(fd, F_SETFD, FD_CLOEXEC)  // hooks must not inherit it (mkostemp is not in Swift's Glibc)
        let temporary = String(decoding: template.dropLast().map { UInt8(bitPattern: $0) }, as: UTF8.self)
        var renamed = false
        defer {
            if !renamed { unlink(temporary) }
        }
        guard FileOutput.write(text, to: fd) else {
            let code = errno
            close(fd)
            throw TextfileError(operation: "write", path: temporary, code: code)
        }
        // mkstemp makes it 0600 whatever the umask.
        guard fchmod(fd, mode) == 0, fsync(fd) == 0 else {
            let code = errno
            close(fd)
            throw TextfileError(operation: "fchmod/fsync", path: temporary, code: code)
        }
        guard close(fd) == 0 else { throw TextfileError(operation: "close", path: temporary, code: errno) }
        guard rename(temporary, path) == 0 else { throw TextfileError(operation: "rename to", path: path, code: errno) }
        renamed = true
    }
}
