import Glibc

/// Whole writes with write(2) rather than buffered stdio, so a reader that went away is an
/// error we see at once (EPIPE, with SIGPIPE ignored), not a crash or a silent loss.
public enum FileOutput {
    /// Writes all of `text`, retrying after signals; false when the descriptor can take no more.
    @discardableResult
    public static func write(_ text: String, to fd: Int32) -> Bool {
        let bytes = Array(text.utf8)
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress! + offset, bytes.count - offset) }
            if written > 0 {
                offset += written
            } else if written < 0 && errno == EINTR {
                continue
            } else {
                return false
            }
        }
        return true
    }
}
