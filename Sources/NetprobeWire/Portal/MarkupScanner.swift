/// Byte-level helpers for reading portal pages without a parser: the pages are
/// hostile input (HTML with XML inside comments, often malformed, sometimes huge),
/// and all we want from them are a few short strings. Everything here is linear
/// in the input, never recursive, and never expands anything but the five
/// predefined XML entities and numeric character references (one character each,
/// so nothing can grow: no "billion laughs").
package enum MarkupScanner {
    /// Portal pages are read at most this far; the body cap (max_body_bytes) usually stops sooner.
    static let maxScanBytes = 256 * 1024
    /// A login URL or location name longer than this is not a value we trust or show.
    static let maxValueBytes = 2048

    static func lower(_ byte: UInt8) -> UInt8 {
        (byte >= 0x41 && byte <= 0x5A) ? byte | 0x20 : byte
    }

    static func isSpace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D || byte == 0x0C
    }

    /// First index at or after `from` (and before `end`) where `needle` starts, ASCII case-insensitively.
    /// `needle` must be lower-case ASCII.
    static func find(_ needle: [UInt8], in bytes: [UInt8], from: Int, end: Int? = nil) -> Int? {
        let end = min(end ?? bytes.count, bytes.count)
        guard !needle.isEmpty, from >= 0, end - from >= needle.count else { return nil }
        var index = from
        let last = end - needle.count
        while index <= last {
            if lower(bytes[index]) == needle[0] {
                var matched = 1
                while matched < needle.count && lower(bytes[index + matched]) == needle[matched] { matched += 1 }
                if matched == needle.count { return index }
            }
            index += 1
        }
        return nil
    }

    static func bytes(_ text: String) -> [UInt8] { Array(text.lowercased().utf8) }

    /// Decodes the predefined entities (&lt; &gt; &amp; &quot; &apos;) and numeric
    /// character references; any other reference is kept as written. Returns nil when
    /// the decoded text is longer than `maxValueBytes` or is not UTF-8.
    static func decodeReferences(_ slice: ArraySlice<UInt8>) -> String? {
        var out: [UInt8] = []
        out.reserveCapacity(min(slice.count, maxValueBytes))
        var index = slice.startIndex
        while index < slice.endIndex {
            let byte = slice[index]
            if byte == 0x26, let (scalar, next) = reference(in: slice, at: index) {
                out.append(contentsOf: Array(String(Character(scalar)).utf8))
                index = next
            } else {
                out.append(byte)
                index += 1
            }
            if out.count > maxValueBytes { return nil }
        }
        return String(validating: out, as: UTF8.self)
    }

    private static let named: [String: Unicode.Scalar] = ["lt": "<", "gt": ">", "amp": "&", "quot": "\"", "apos": "'"]

    /// The character a reference at `start` ("&...;") stands for, and the index after it.
    private static func reference(in slice: ArraySlice<UInt8>, at start: Int) -> (Unicode.Scalar, Int)? {
        var end = start + 1
        while end < slice.endIndex && end - start <= 10 && slice[end] != 0x3B { end += 1 }
        guard end < slice.endIndex, slice[end] == 0x3B, end > start + 1 else { return nil }
        let name = String(decoding: slice[(start + 1)..<end], as: UTF8.self)
        if let scalar = named[name] { return (scalar, end + 1) }
        guard name.hasPrefix("#") else { return nil }
        let digits = name.dropFirst()
        let value: UInt32?
        if digits.first == "x" || digits.first == "X" {
            value = UInt32(digits.dropFirst(), radix: 16)
        } else {
            value = UInt32(digits, radix: 10)
        }
        // No NUL and no control characters, C1 included (`&#x9b;` is CSI): a reference must not
        // smuggle in what the text could not carry. Such a reference stays as written.
        guard let value, value >= 0x20 || value == 0x09 || value == 0x0A || value == 0x0D, !(0x7F...0x9F).contains(value),
              let scalar = Unicode.Scalar(value) else { return nil }
        return (scalar, end + 1)
    }

    /// Trims ASCII whitespace from both ends.
    package static func trim(_ text: String) -> String {
        text.trimmingASCII { $0 == 0x20 || $0 == 0x09 || $0 == 0x0A || $0 == 0x0D || $0 == 0x0C }
    }
}
