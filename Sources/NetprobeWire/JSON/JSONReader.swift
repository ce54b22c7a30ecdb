/// The one JSON reader netprobe has: probes.json, Captive Portal API answers, anything later.
/// Strict RFC 8259 on hostile input: UTF-8 only (a UTF-8 BOM is skipped), no trailing commas,
/// no duplicate keys (readers that take the first and readers that take the last would
/// disagree about the same file), finite numbers only, a byte cap and a depth cap. One pass
/// with an explicit stack instead of recursion, so time is linear in the input and depth
/// cannot exhaust the thread's stack. Every value keeps its line and column, and every
/// failure names its line, column and JSON path.
public struct JSONReader {
    public struct Limits: Sendable {
        public var maxBytes: Int
        /// Arrays and objects nested deeper than this are refused; netprobe's documents need 5.
        public var maxDepth: Int

        public init(maxBytes: Int, maxDepth: Int = 64) {
            self.maxBytes = maxBytes
            self.maxDepth = maxDepth
        }
    }

    public struct Failure: Error, Sendable, Equatable, CustomStringConvertible {
        public var message: String
        public var position: JSONPosition
        /// Where in the document the reader was, e.g. `$.probes[2].name` for a repeated key.
        public var path: String

        public var description: String { "\(message) at \(path) (\(position))" }
    }

    /// A number longer than this is refused: no real document needs it, and converting a
    /// megabyte of digits is work an attacker should not get for free.
    static let maximumNumberLength = 512

    public static func parse(_ bytes: [UInt8], limits: Limits) throws(Failure) -> JSONValue {
        var reader = JSONReader(bytes: bytes, limits: limits)
        return try reader.document()
    }

    private struct Frame {
        var isObject: Bool
        var start: JSONPosition
        var items: [JSONValue] = []
        var members: [JSONKey: JSONValue] = [:]
        /// The key whose value is being read (objects only).
        var key = JSONKey("")
    }

    private let bytes: [UInt8]
    private let limits: Limits
    private var index = 0
    private var line = 1
    private var lineStart = 0
    /// UTF-8 continuation bytes seen on this line, so columns count scalars, not bytes.
    private var continuationBytes = 0
    private var stack: [Frame] = []
    private var scratch: [UInt8] = []

    private init(bytes: [UInt8], limits: Limits) {
        self.bytes = bytes
        self.limits = limits
    }

    private var position: JSONPosition {
        JSONPosition(line: line, column: index - lineStart - continuationBytes + 1, offset: index)
    }

    /// `$` plus the key or index of every open container; `element` adds the one being read.
    private func path(element: Bool = true) -> String {
        var path = JSONPath.root
        for (level, frame) in stack.enumerated() where element || level < stack.count - 1 {
            path = frame.isObject ? JSONPath.member(path, frame.key.text) : JSONPath.element(path, frame.items.count)
        }
        return path
    }

    private func failure(_ message: String, element: Bool = true) -> Failure {
        Failure(message: message, position: position, path: path(element: element))
    }

    private mutating func document() throws(Failure) -> JSONValue {
        guard bytes.count <= limits.maxBytes else { throw failure("the text is larger than \(limits.maxBytes) bytes") }
        try checkEncoding()
        var value: JSONValue
        parsing: while true {
            skipSpace()
            guard index < bytes.count else { throw failure("unexpected end of input; expected a value") }
            let start = position
            switch bytes[index] {
            case UInt8(ascii: "["), UInt8(ascii: "{"):
                let isObject = bytes[index] == UInt8(ascii: "{")
                guard stack.count < limits.maxDepth else {
                    throw failure("arrays and objects nested deeper than \(limits.maxDepth) levels")
                }
                index += 1
                skipSpace()
                if index < bytes.count, bytes[index] == (isObject ? UInt8(ascii: "}") : UInt8(ascii: "]")) {
                    index += 1
                    value = JSONValue(isObject ? .object([:]) : .array([]), at: start)
                } else {
                    stack.append(Frame(isObject: isObject, start: start))
                    if isObject { try key(afterComma: false) }
                    continue parsing
                }
            case UInt8(ascii: "\""):
                value = JSONValue(.string(try string()), at: start)
            case UInt8(ascii: "t"):
                try literal("true")
                value = JSONValue(.bool(true), at: start)
            case UInt8(ascii: "f"):
                try literal("false")
                value = JSONValue(.bool(false), at: start)
            case UInt8(ascii: "n"):
                try literal("null")
                value = JSONValue(.null, at: start)
            case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
                value = JSONValue(.number(try number()), at: start)
            default:
                throw try unexpected("expected a value")
            }
            // A value is complete: give it to its container, closing every container that ends here.
            while !stack.isEmpty {
                let top = stack.count - 1
                if stack[top].isObject {
                    stack[top].members[stack[top].key] = value
                } else {
                    stack[top].items.append(value)
                }
                skipSpace()
                let closer = stack[top].isObject ? UInt8(ascii: "}") : UInt8(ascii: "]")
                guard index < bytes.count else {
                    throw failure("unexpected end of input; expected ',' or '\(Character(Unicode.Scalar(closer)))'", element: false)
                }
                if bytes[index] == UInt8(ascii: ",") {
                    index += 1
                    skipSpace()
                    if stack[top].isObject {
                        try key(afterComma: true)
                    } else if index < bytes.count, bytes[index] == UInt8(ascii: "]") {
                        throw failure("a trailing comma before ']'", element: false)
                    }
                    continue parsing
                }
                guard bytes[index] == closer else {
                    throw try unexpected("expected ',' or '\(Character(Unicode.Scalar(closer)))'", element: false)
                }
                index += 1
                let frame = stack.removeLast()
                value = JSONValue(frame.isObject ? .object(frame.members) : .array(frame.items), at: frame.start)
            }
            break parsing
        }
        skipSpace()
        if index < bytes.count { throw try unexpected("expected nothing after the JSON value") }
        return value
    }

    /// RFC 8259 §8.1: JSON exchanged between systems is UTF-8. A UTF-16 or UTF-32 text shows a
    /// byte order mark or NUL bytes among its first ASCII characters; say so instead of "unexpected byte".
    private mutating func checkEncoding() throws(Failure) {
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

    private mutating func skipSpace() {
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

    /// An object's key and its colon; a key already seen in this object is refused (the same
    /// code units: see JSONKey).
    private mutating func key(afterComma: Bool) throws(Failure) {
        guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else {
            if afterComma, index < bytes.count, bytes[index] == UInt8(ascii: "}") {
                throw failure("a trailing comma before '}'", element: false)
            }
            throw try unexpected("expected a string key", element: false)
        }
        let keyPosition = position
        let key = JSONKey(try string())
        let top = stack.count - 1
        if stack[top].members[key] != nil {
            throw Failure(message: "duplicate key \(JSONPath.quoted(key.text)) (each key may appear once in an object)",
                          position: keyPosition, path: JSONPath.member(path(element: false), key.text))
        }
        stack[top].key = key
        skipSpace()
        guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else { throw try unexpected("expected ':' after the key") }
        index += 1
    }

    private mutating func literal(_ word: StaticString) throws(Failure) {
        let expected = UnsafeBufferPointer(start: word.utf8Start, count: word.utf8CodeUnitCount)
        guard bytes.count - index >= expected.count, bytes[index..<(index + expected.count)].elementsEqual(expected) else {
            throw failure("invalid literal; expected true, false or null")
        }
        index += expected.count
    }

    private mutating func number() throws(Failure) -> Double {
        let start = index
        let startPosition = position
        if bytes[index] == UInt8(ascii: "-") { index += 1 }
        guard index < bytes.count, isDigit(bytes[index]) else { throw try unexpected("expected a digit") }
        if bytes[index] == UInt8(ascii: "0"), index + 1 < bytes.count, isDigit(bytes[index + 1]) {
            index += 1
            throw failure("a number with a leading zero")
        }
        skipDigits()
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            index += 1
            guard index < bytes.count, isDigit(bytes[index]) else { throw try unexpected("expected a digit after '.'") }
            skipDigits()
        }
        if index < bytes.count, bytes[index] | 0x20 == UInt8(ascii: "e") {
            index += 1
            if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") { index += 1 }
            guard index < bytes.count, isDigit(bytes[index]) else { throw try unexpected("expected a digit in the exponent") }
            skipDigits()
        }
        guard index - start <= Self.maximumNumberLength else {
            throw Failure(message: "a number longer than \(Self.maximumNumberLength) characters", position: startPosition, path: path())
        }
        let text = String(decoding: bytes[start..<index], as: UTF8.self)
        guard let number = Double(text), number.isFinite else {
            throw Failure(message: "the number \(text) is out of range (beyond ±1.8e308)", position: startPosition, path: path())
        }
        return number
    }

    private mutating func skipDigits() {
        while index < bytes.count, isDigit(bytes[index]) { index += 1 }
    }

    private func isDigit(_ byte: UInt8) -> Bool { byte >= 0x30 && byte <= 0x39 }
}

// Strings: escapes, surrogate pairs and UTF-8 validation.
extension JSONReader {
    private mutating func string() throws(Failure) -> String {
        index += 1  // the opening quote
        // Most strings are plain ASCII without escapes: take them as they are.
        var end = index
        while end < bytes.count, bytes[end] != UInt8(ascii: "\""), bytes[end] != UInt8(ascii: "\\"), bytes[end] >= 0x20, bytes[end] < 0x80 {
            end += 1
        }
        if end < bytes.count, bytes[end] == UInt8(ascii: "\"") {
            defer { index = end + 1 }
            return String(decoding: bytes[index..<end], as: UTF8.self)
        }
        scratch.removeAll(keepingCapacity: true)
        scratch.append(contentsOf: bytes[index..<end])
        index = end
        while index < bytes.count {
            let byte = bytes[index]
            switch byte {
            case UInt8(ascii: "\""):
                index += 1
                return String(decoding: scratch, as: UTF8.self)
            case UInt8(ascii: "\\"):
                try escape()
            case 0..<0x20:
                throw failure("an unescaped control character (U+\(hex(UInt32(byte), width: 4))) in a string")
            case 0x20..<0x80:
                scratch.append(byte)
                index += 1
            default:
                let length = try utf8Sequence()
                scratch.append(contentsOf: bytes[index..<(index + length)])
                index += length
                continuationBytes += length - 1
            }
        }
        throw failure("unexpected end of input inside a string")
    }

    private mutating func escape() throws(Failure) {
        guard index + 1 < bytes.count else { throw failure("unexpected end of input inside a string") }
        let simple: UInt8?
        switch bytes[index + 1] {
        case UInt8(ascii: "\""): simple = UInt8(ascii: "\"")
        case UInt8(ascii: "\\"): simple = UInt8(ascii: "\\")
        case UInt8(ascii: "/"): simple = UInt8(ascii: "/")
        case UInt8(ascii: "b"): simple = 0x08
        case UInt8(ascii: "f"): simple = 0x0C
        case UInt8(ascii: "n"): simple = 0x0A
        case UInt8(ascii: "r"): simple = 0x0D
        case UInt8(ascii: "t"): simple = 0x09
        case UInt8(ascii: "u"): simple = nil
        default: throw failure("an invalid escape sequence in a string")
        }
        if let simple {
            scratch.append(simple)
            index += 2
            return
        }
        let first = try hexEscape(at: index)
        var scalarValue = first
        if (0xDC00...0xDFFF).contains(first) {
            throw failure("a lone low surrogate \\u\(hex(first, width: 4)) in a string")
        }
        if (0xD800...0xDBFF).contains(first) {
            let lone = failure("a lone high surrogate \\u\(hex(first, width: 4)) in a string")
            guard index + 11 < bytes.count, bytes[index + 6] == UInt8(ascii: "\\"), bytes[index + 7] == UInt8(ascii: "u") else { throw lone }
            let second = try hexEscape(at: index + 6)
            guard (0xDC00...0xDFFF).contains(second) else { throw lone }
            scalarValue = 0x10000 + ((first - 0xD800) << 10) + (second - 0xDC00)
            index += 6
        }
        index += 6
        // Surrogates were handled above, so this scalar always exists.
        if let scalar = Unicode.Scalar(scalarValue) { UTF8.encode(scalar) { scratch.append($0) } }
    }

    /// The code unit of `\uXXXX` starting at `at`.
    private func hexEscape(at start: Int) throws(Failure) -> UInt32 {
        guard start + 5 < bytes.count else { throw failure("unexpected end of input inside a string") }
        var value: UInt32 = 0
        for byte in bytes[(start + 2)...(start + 5)] {
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default: throw failure("an invalid \\u escape (expected four hex digits) in a string")
            }
            value = value << 4 | UInt32(digit)
        }
        return value
    }

    /// The length of the well-formed UTF-8 sequence at `index` (`UTF8Sequence`), or a failure
    /// naming the bad byte.
    private func utf8Sequence() throws(Failure) -> Int {
        let lead = bytes[index]
        switch UTF8Sequence.check(bytes, at: index) {
        case .valid(let length):
            return length
        case .badLead:
            throw failure("invalid UTF-8 (byte 0x\(hex(UInt32(lead), width: 2)))")
        case .endsInside:
            throw failure("invalid UTF-8 (the text ends inside a character)")
        case .badContinuation(let byte):
            throw failure("invalid UTF-8 (byte 0x\(hex(UInt32(byte), width: 2)) after 0x\(hex(UInt32(lead), width: 2)))")
        }
    }

    /// A failure for the byte at `index` that does not fit: says what was found, and calls
    /// bytes that are not UTF-8 what they are.
    private func unexpected(_ expectation: String, element: Bool = true) throws(Failure) -> Failure {
        guard index < bytes.count else { return failure("unexpected end of input; \(expectation)", element: element) }
        let byte = bytes[index]
        let found: String
        switch byte {
        case 0x21...0x7E: found = "'\(Character(Unicode.Scalar(byte)))'"
        case 0..<0x80: found = "U+\(hex(UInt32(byte), width: 4))"
        default:
            let length = try utf8Sequence()
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
