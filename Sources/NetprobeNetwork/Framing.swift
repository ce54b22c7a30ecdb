import NetprobeWire
import NetprobeVerdict
import NetprobeSystem

/// Framing errors libcurl lets through. Two Content-Length headers that disagree make the
/// body's end ambiguous (RFC 9112 section 6.3: an unrecoverable error; the basis of
/// request smuggling). libcurl 7.88 reads one of them and reports success, so the body it
/// kept and the length the evidence shows can disagree: that answer is the far side
/// breaking HTTP, a protocol failure, never a portal's "wrong content".
enum Framing {
    /// libcurl's nearest code for "the server's answer is not valid HTTP".
    static let weirdServerReply = 8

    /// The protocol error for `headers` (the last response's), or nil when framing is sound.
    static func error(headers: [(name: String, value: String)]) -> TransportError? {
        // "Content-Length: 7, 7" (a list of one value) is allowed; values that differ are not.
        var lengths: [Substring] = []
        for header in headers where header.name == "content-length" {
            for part in header.value.split(separator: ",") {
                let length = Substring(part.trimmingSpacesAndTabs)
                if !lengths.contains(length) { lengths.append(length) }
            }
        }
        guard lengths.count > 1 else { return nil }
        let shown = lengths.prefix(4).map { "\($0.prefix(20))" }.joined(separator: ", ")
        return TransportError(kind: .proto, code: weirdServerReply,
                              message: "conflicting Content-Length headers (\(shown)): the answer's length is ambiguous")
    }
}
