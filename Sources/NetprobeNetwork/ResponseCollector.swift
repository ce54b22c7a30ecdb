import NetprobeWire
import NetprobeVerdict
import NetprobeSystem
/// Collects what the server sends for one transfer, with hard bounds so a hostile
/// server (endless body, megabytes of headers) cannot make us grow without limit.
/// Fed from libcurl's write and header callbacks; plain Swift so it is testable alone.
final class ResponseCollector {
    static let maxHeaderCount = 64
    static let maxHeaderValueBytes = 2048
    static let maxHeaderNameBytes = 256

    let maxBodyBytes: Int
    private(set) var body: [UInt8] = []
    /// More body arrived than `maxBodyBytes`; the transfer was stopped on purpose.
    private(set) var bodyTruncated = false
    private(set) var headers: [(name: String, value: String)] = []
    /// The next header line opens a block: the transfer's first line, or the one after a
    /// blank line. Only such a line can be a status line.
    private var atBlockStart = true

    init(maxBodyBytes: Int) {
        self.maxBodyBytes = max(0, maxBodyBytes)
        body.reserveCapacity(min(self.maxBodyBytes, 16384))
    }

    /// Appends body bytes up to the cap. Returns false once the cap is exceeded,
    /// which tells libcurl to stop the transfer (we have all we will ever look at).
    func appendBody(_ bytes: UnsafeRawBufferPointer) -> Bool {
        let room = maxBodyBytes - body.count
        if bytes.count <= room {
            body.append(contentsOf: bytes)
            return true
        }
        body.append(contentsOf: bytes.prefix(room))
        bodyTruncated = true
        return false
    }

    /// Takes one raw header line as libcurl delivers it (status lines and the blank
    /// line that ends a block included). Only the last response's headers are kept:
    /// a new status line (after a 1xx or a proxy's CONNECT answer) starts the list over.
    /// A status line is the first line of a block that comes before any body byte; a header
    /// merely named `HTTP/...` inside a block, or a trailer after the body, is not one, so a
    /// server cannot erase the headers it sent before it (a Location, say).
    func receiveHeaderLine(_ raw: UnsafeRawBufferPointer) {
        var line = raw[...]
        while let last = line.last, last == UInt8(ascii: "\r") || last == UInt8(ascii: "\n") {
            line = line.dropLast()
        }
        guard let first = line.first else {
            atBlockStart = true
            return
        }
        let opensBlock = atBlockStart
        atBlockStart = false
        if opensBlock, body.isEmpty, !bodyTruncated, line.starts(with: "HTTP/".utf8) {
            headers.removeAll(keepingCapacity: true)
            return
        }
        if first == UInt8(ascii: " ") || first == UInt8(ascii: "\t") {
            appendContinuation(line)
            return
        }
        guard let colon = line.firstIndex(of: UInt8(ascii: ":")), headers.count < Self.maxHeaderCount else { return }
        let name = Self.text(Self.trimmed(line[..<colon]), limit: Self.maxHeaderNameBytes).lowercased()
        let value = Self.text(Self.trimmed(line[(colon + 1)...]), limit: Self.maxHeaderValueBytes)
        headers.append((name: name, value: value))
    }

    /// Obsolete line folding (RFC 7230 3.2.4): join to the previous value, still bounded.
    private func appendContinuation(_ line: Slice<UnsafeRawBufferPointer>) {
        guard var last = headers.popLast() else { return }
        let room = Self.maxHeaderValueBytes - last.value.utf8.count - 1
        if room > 0 {
            last.value += " " + Self.text(Self.trimmed(line), limit: room)
        }
        headers.append(last)
    }

    private static func trimmed(_ bytes: Slice<UnsafeRawBufferPointer>) -> Slice<UnsafeRawBufferPointer> {
        let isSpace = { (byte: UInt8) in byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") }
        var result = bytes
        while let first = result.first, isSpace(first) { result = result.dropFirst() }
        while let last = result.last, isSpace(last) { result = result.dropLast() }
        return result
    }

    /// Bytes to text without validation failures: invalid UTF-8 becomes U+FFFD.
    /// Control characters are kept as they are; escaping is the formatters' job.
    private static func text(_ bytes: Slice<UnsafeRawBufferPointer>, limit: Int) -> String {
        String(decoding: bytes.prefix(limit), as: UTF8.self)
    }
}
