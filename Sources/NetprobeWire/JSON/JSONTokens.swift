// The grammar of JSON's tokens, read once for both of the reader's modes: the encoding, white
// space, strings (escapes, surrogate pairs, UTF-8), numbers and literals, and the words of
// every failure. A value that is skipped passes through the same checks as one that is built;
// it only leaves out making the String or the Double.
extension JSONReader {
    var position: JSONPosition { position(at: index) }

    /// The position of `offset` on the current line.
    func position(at offset: Int) -> JSONPosition {
        JSONPosition(line: line, column: offset - lineStart - continuationBytes + 1, offset: offset)
    }

    // Failures are made out of line: the checks that throw them stay small enough to inline,
    // and the words are put together only for a text that is refused.
    @inline(never)
    func failure(_ message: String, element: Bool = true) -> Failure {
        Failure(message: message, position: position, path: path(element: element))
    }

    @inline(never)
    func failure(_ message: String, at offset: Int) -> Failure {
        Failure(message: message, position: position(at: offset), path: path())
    }

    /// RFC 8259 §8.1: JSON exchanged between systems is UTF-8. A UTF-16 or UTF-32 text shows a
    /// byte order mark or NUL bytes among its first ASCII characters; say so instead of "unexpected byte".
    mutating func checkEncoding() throws(Failure) {
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) {
            index = 3
            lineStart = 3
            return
        }
        let head = bytes.prefix(4)
        if head.starts(with: [0xFE, 0xFF]) || head.starts(with: [0xFF, 0xFE]) || head.starts(with: [0, 0, 0xFE, 0xFF]) {
            throw failure("the text is UTF-16 or UTF-32 (it starts with a byte order mark); JSON must be UTF-8")
        }
        if head.count >= 2, head.contains(0) {
            throw failure("the text looks like UTF-16 or UTF-32 (NUL bytes at its start); JSON must be UTF-8")
        }
    }

    mutating func skipSpace() {
        while index < bytes.count {
            switch bytes[index] {
            case 0x20, 0x09, 0x0D:
                index += 1
            case 0x0A:
                index += 1
                line += 1
                lineStart = index
                continuationBytes = 0
            default:
                return
            }
        }
    }

    mutating func literal(_ word: StaticString) throws(Failure) {
        let count = word.utf8CodeUnitCount
        var matches = bytes.count - index >= count
        for offset in 0..<count where matches && bytes[index + offset] != word.utf8Start[offset] { matches = false }
        guard matches else { throw failure("invalid literal; expected true, false or null") }
        index += count
    }

    /// Checks the number at `index` and converts it when it is built, or when it is skipped
    /// but might be beyond a double's range (which refuses the text either way).
    mutating func number(build: Bool) throws(Failure) -> Double {
        let start = index
        var at = index
        if bytes[at] == UInt8(ascii: "-") { at += 1 }
        guard at < bytes.count, isDigit(bytes[at]) else {
            index = at
            throw try unexpected("expected a digit")
        }
        let integerStart = at
        if bytes[at] == UInt8(ascii: "0") {
            at += 1
            if at < bytes.count, isDigit(bytes[at]) { throw failure("a number with a leading zero", at: at) }
        } else {
            while at < bytes.count, isDigit(bytes[at]) { at += 1 }
        }
        let integerDigits = bytes[integerStart] == UInt8(ascii: "0") ? 0 : at - integerStart
        if at < bytes.count, bytes[at] == UInt8(ascii: ".") {
            at += 1
            guard at < bytes.count, isDigit(bytes[at]) else {
                index = at
                throw try unexpected("expected a digit after '.'")
            }
            while at < bytes.count, isDigit(bytes[at]) { at += 1 }
        }
        var exponent = 0
        if at < bytes.count, bytes[at] | 0x20 == UInt8(ascii: "e") {
            at += 1
            var negative = false
            if at < bytes.count, bytes[at] == UInt8(ascii: "+") || bytes[at] == UInt8(ascii: "-") {
                negative = bytes[at] == UInt8(ascii: "-")
                at += 1
            }
            guard at < bytes.count, isDigit(bytes[at]) else {
                index = at
                throw try unexpected("expected a digit in the exponent")
            }
            while at < bytes.count, isDigit(bytes[at]) {
                exponent = min(exponent * 10 + Int(bytes[at] - UInt8(ascii: "0")), 1_000_000)
                at += 1
            }
            if negative { exponent = -exponent }
        }
        index = at
        guard at - start <= Self.maximumNumberLength else { throw numberTooLong(at: start) }
        // Below 10^308 a number is finite (the largest double is 1.797...e308), and its value is
        // below 10^(integer digits + exponent): most numbers skipped are never converted.
        if !build, integerDigits + exponent <= 308 { return 0 }
        let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<at]), as: UTF8.self)
        guard let number = Double(text), number.isFinite else { throw numberOutOfRange(text, at: start) }
        return number
    }

    @inline(never)
    private func numberTooLong(at start: Int) -> Failure {
        failure("a number longer than \(Self.maximumNumberLength) characters", at: start)
    }

    @inline(never)
    private func numberOutOfRange(_ text: String, at start: Int) -> Failure {
        failure("the number \(text) is out of range (beyond ±1.8e308)", at: start)
    }

    private func isDigit(_ byte: UInt8) -> Bool { byte >= 0x30 && byte <= 0x39 }
}

// Strings: escapes, surrogate pairs and UTF-8 validation.
extension JSONReader {
    /// Reads the string whose opening quote is at `index`. Returns where its text lies in the
    /// input when it has no escape (the text is those bytes); nil when it has one, with the
    /// decoded text in `scratch` if `decode`.
    mutating func string(decode: Bool) throws(Failure) -> Range<Int>? {
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
                throw controlCharacter(at: at)
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
        throw failure("unexpected end of input inside a string", at: at)
    }

    @inline(never)
    private func controlCharacter(at offset: Int) -> Failure {
        failure("an unescaped control character (U+\(hex(UInt32(bytes[offset]), width: 4))) in a string", at: offset)
    }

    /// A string's text, from the input (`range`) or from `scratch` (it had an escape).
    func text(_ range: Range<Int>?) -> String {
        guard let range else { return String(decoding: scratch, as: UTF8.self) }
        return String(decoding: UnsafeBufferPointer(rebasing: bytes[range]), as: UTF8.self)
    }

    /// The escape whose backslash is at `at`; returns where the string goes on. A failure
    /// points at the backslash (of the first of a surrogate pair's two escapes).
    private mutating func escape(at: Int, decode: Bool) throws(Failure) -> Int {
        guard at + 1 < bytes.count else { throw failure("unexpected end of input inside a string", at: at) }
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
            let first = try hexEscape(at: at, backslash: at)
            if (0xDC00...0xDFFF).contains(first) { throw loneSurrogate(first, at: at) }
            var scalarValue = first
            var next = at + 6
            if (0xD800...0xDBFF).contains(first) {
                // Only a low surrogate's escape may follow a high one.
                guard at + 11 < bytes.count, bytes[next] == UInt8(ascii: "\\"), bytes[next + 1] == UInt8(ascii: "u") else {
                    throw loneSurrogate(first, at: at)
                }
                let second = try hexEscape(at: next, backslash: at)
                guard (0xDC00...0xDFFF).contains(second) else { throw loneSurrogate(first, at: at) }
                scalarValue = 0x10000 + ((first - 0xD800) << 10) + (second - 0xDC00)
                next += 6
            }
            // Surrogates were handled above, so this scalar always exists.
            if decode, let scalar = Unicode.Scalar(scalarValue) { UTF8.encode(scalar) { scratch.append($0) } }
            return next
        default:
            throw failure("an invalid escape sequence in a string", at: at)
        }
        if decode { scratch.append(simple) }
        return at + 2
    }

    @inline(never)
    private func loneSurrogate(_ unit: UInt32, at offset: Int) -> Failure {
        failure("a lone \(unit >= 0xDC00 ? "low" : "high") surrogate \\u\(hex(unit, width: 4)) in a string", at: offset)
    }

    /// The code unit of the `\uXXXX` starting at `start`; a failure points at `backslash`.
    private func hexEscape(at start: Int, backslash: Int) throws(Failure) -> UInt32 {
        guard start + 5 < bytes.count else { throw failure("unexpected end of input inside a string", at: backslash) }
        var value: UInt32 = 0
        for byte in bytes[(start + 2)...(start + 5)] {
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default: throw failure("an invalid \\u escape (expected four hex digits) in a string", at: backslash)
            }
            value = value << 4 | UInt32(digit)
        }
        return value
    }

    /// The length of the well-formed UTF-8 sequence at `start` (`UTF8Sequence`), or a failure
    /// naming the bad byte.
    private func utf8Sequence(at start: Int) throws(Failure) -> Int {
        let check = UTF8Sequence.check(bytes, at: start)
        guard case .valid(let length) = check else { throw notUTF8(check, at: start) }
        return length
    }

    @inline(never)
    private func notUTF8(_ check: UTF8Sequence.Check, at start: Int) -> Failure {
        let lead = bytes[start]
        switch check {
        case .valid:
            preconditionFailure("a well-formed sequence is not a failure")
        case .badLead:
            return failure("invalid UTF-8 (byte 0x\(hex(UInt32(lead), width: 2)))", at: start)
        case .endsInside:
            return failure("invalid UTF-8 (the text ends inside a character)", at: start)
        case .badContinuation(let byte):
            return failure("invalid UTF-8 (byte 0x\(hex(UInt32(byte), width: 2)) after 0x\(hex(UInt32(lead), width: 2)))", at: start)
        }
    }

    /// A failure for the byte at `index` that does not fit: says what was found, and calls
    /// bytes that are not UTF-8 what they are.
    @inline(never)
    func unexpected(_ expectation: String, element: Bool = true) throws(Failure) -> Failure {
        guard index < bytes.count else { return failure("unexpected end of input; \(expectation)", element: element) }
        let byte = bytes[index]
        let found: String
        switch byte {
        case 0x21...0x7E: found = "'\(Character(Unicode.Scalar(byte)))'"
        case 0..<0x80: found = "U+\(hex(UInt32(byte), width: 4))"
        default:
            let length = try utf8Sequence(at: index)
            var decoder = UTF8()
            var iterator = bytes[index..<(index + length)].makeIterator()
            guard case .scalarValue(let scalar) = decoder.decode(&iterator) else { return failure(expectation, element: element) }
            found = "U+\(hex(scalar.value, width: 4))"
        }
        return failure("\(expectation), found \(found)", element: element)
    }

    private func hex(_ value: UInt32, width: Int) -> String {
        let digits = String(value, radix: 16, uppercase: true)
        return String(repeating: "0", count: max(0, width - digits.count)) + digits
    }
}
