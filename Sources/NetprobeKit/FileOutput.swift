import SystemPackage

/// Whole writes with write(2) rather than buffered stdio, so a reader that went away is an
/// error we see at once (EPIPE, with SIGPIPE ignored), not a crash or a silent loss.
public enum FileOutput {
    /// Writes all of `text`, retrying after signals; false when the descriptor can take no more.
    @discardableResult
    public static func write(_ text: String, to fd: Int32) -> Bool {
        do {
            _ = try FileDescriptor(rawValue: fd).writeAll(text.utf8)
            return true
        } catch {
            return false
        }
    }
}
