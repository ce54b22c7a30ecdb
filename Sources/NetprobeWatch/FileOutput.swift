import SystemPackage
import NetprobeWire
import NetprobeVerdict
import NetprobeOutput
import NetprobeSystem
import NetprobeNetwork
import NetprobeCheck

/// Whole writes with write(2) rather than buffered stdio, so a reader that went away is an
/// error we see at once (EPIPE, with SIGPIPE ignored), not a crash or a silent loss.
public enum FileOutput {
    /// Writes all of `text`, retrying after signals; false when the descriptor can take no more.
    /// The loop is over swift-system's `write(_:)` on one contiguous buffer: its generic
    /// `writeAll(_:)` instantiates its result type by name at run time, a cost every offline
    /// check would pay.
    @discardableResult
    public static func write(_ text: String, to fd: Int32) -> Bool {
        var text = text
        return text.withUTF8 { bytes in
            let descriptor = FileDescriptor(rawValue: fd)
            var rest = UnsafeRawBufferPointer(bytes)
            while !rest.isEmpty {
                // write(_:retryOnInterrupt:) already retries after EINTR.
                guard let written = try? descriptor.write(rest), written > 0 else { return false }
                rest = UnsafeRawBufferPointer(rebasing: rest[written...])
            }
            return true
        }
    }
}
