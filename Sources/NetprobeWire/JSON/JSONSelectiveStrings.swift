// Strings: escapes, surrogate pairs and UTF-8 validation, without building what is skipped.
extension JSONSelectiveScanner {
    /// Reads the string whose opening quote is at `index`. Returns where its text lies in the
    /// input when it has no escape (the text is those bytes); nil when it has one, with the
    /// decoded text in `scratch` if `decode`.
    mutating func string(decode: Bool) throws(Refused) -> Range<Int>? {
        let start = index + 1
        var at = start
        // Most strings are short plain ASCII: one test per byte (controls and bytes from 0x80
        // on both wrap to 0x60 or more when 0x20 is subtracted).
        let input = bytes
        while at < input.count {
            let byte = input[at]
            if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") || byte &- 0x20 >= 0x60 { break }
            at += 1
        }
        if at < input.count, input[at] == UInt8(ascii: "\"") {
            index = at + 1
            return start..<at
        }
        var escaped = false
        while at < bytes.count {
            let byte = bytes[at]
            switch byte {
            case UInt8(ascii: "\""):
                index = at + 1
                return escaped ? nil : start..<at
            case UInt8(ascii: "\\"):
                if !escaped, decode {
                    scratch.removeAll(keepingCapacity: true)
                    scratch.append(contentsOf: bytes[start..<at])
                }
                escaped = true
                at = try escape(at: at, decode: decode)
            case 0..<0x20:
                throw Refused()
            case 0x20..<0x80:
                if escaped, decode { scratch.append(byte) }
                at += 1
            default:
                let length = try utf8Sequence(at: at)
                if escaped, decode { scratch.append(contentsOf: bytes[at..<(at + length)]) }
                at += length
                continuationBytes += length - 1
            }
        }
        throw Refused()
    }

    /// The escape whose backslash is at `at`; returns where the string goes on.
    private mutating func escape(at: Int, decode: Bool) throws(Refused) -> Int {
        guard at + 1 < bytes.count else { throw Refused() }
        let simple: UInt8
        switch bytes[at + 1] {
        case UInt8(ascii: "\""): simple = UInt8(ascii: "\"")
        case UInt8(ascii: "\\"): simple = UInt8(ascii: "\\")
        case UInt8(ascii: "/"): simple = UInt8(ascii: "/")
        case UInt8(ascii: "b"): simple = 0x08
        case UInt8(ascii: "f"): simple = 0x0C
        case UInt8(ascii: "n"): simple = 0x0A
        case UInt8(ascii: "r"): simple = 0x0D
        case UInt8(ascii: "t"): simple = 0x09
        case UInt8(ascii: "u"):
            let first = try hexDigits(at: at + 2)
            var scalarValue = first
            var next = at + 6
            if (0xDC00...0xDFFF).contains(first) { throw Refused() }  // a lone low surrogate
            if (0xD800...0xDBFF).contains(first) {
                // Only a low surrogate's escape may follow a high one.
                guard next + 1 < bytes.count, bytes[next] == UInt8(ascii: "\\"), bytes[next + 1] == UInt8(ascii: "u") else { throw Refused() }
                let second = try hexDigits(at: next + 2)
                guard (0xDC00...0xDFFF).contains(second) else { throw Refused() }
                scalarValue = 0x10000 + ((first - 0xD800) << 10) + (second - 0xDC00)
                next += 6
            }
            // Surrogates were handled above, so this scalar always exists.
            if decode, let scalar = Unicode.Scalar(scalarValue) { UTF8.encode(scalar) { scratch.append($0) } }
            return next
        default:
            throw Refused()
        }
        if decode { scratch.append(simple) }
        return at + 2
    }

    /// The four hex digits of a `\u` escape from `at` on.
    private func hexDigits(at start: Int) throws(Refused) -> UInt32 {
        guard start + 4 <= bytes.count else { throw Refused() }
        var value: UInt32 = 0
        for byte in bytes[start..<(start + 4)] {
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default: throw Refused()
            }
            value = value << 4 | UInt32(digit)
        }
        return value
    }

    /// The length of the well-formed UTF-8 sequence at `at` (`UTF8Sequence`).
    private func utf8Sequence(at start: Int) throws(Refused) -> Int {
        guard case .valid(let length) = UTF8Sequence.check(bytes, at: start) else { throw Refused() }
        return length
    }
}
