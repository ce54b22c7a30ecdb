/// Finds where a JSON text stops being JSON. JSONDecoder only says "not valid JSON";
/// people need a place. The messages follow JSONSerialization's ("Invalid value around
/// character 32."), whose byte offsets ConfigParser turns into a line and column.
/// Iterative (no recursion), one pass: the input is at most ConfigParser.maximumFileBytes.
struct JSONSyntax {
    struct Failure: Error {
        let message: String
        /// Byte offset of the offending byte; nil when the text simply ends too early.
        let offset: Int?
    }

    private enum Container { case array, object }

    private let bytes: [UInt8]
    private var index = 0
    private var stack: [Container] = []

    static let maximumDepth = 512

    /// The first syntax error, or nil when the text is well-formed JSON (trailing commas
    /// allowed, as JSONDecoder allows them).
    static func firstError(in bytes: [UInt8]) -> Failure? {
        var scanner = JSONSyntax(bytes: bytes)
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { scanner.index = 3 }
        do {
            try scanner.document()
            return nil
        } catch {
            return error
        }
    }

    private init(bytes: [UInt8]) {
        self.bytes = bytes
    }

    private static let endOfFile = Failure(message: "Unexpected end of file during JSON parse.", offset: nil)

    private func invalid(_ at: Int) -> Failure {
        Failure(message: "Invalid value around character \(at).", offset: at)
    }

    private mutating func skipSpace() {
        while index < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[index]) { index += 1 }
    }

    private mutating func next() throws(Failure) -> UInt8 {
        skipSpace()
        guard index < bytes.count else { throw Self.endOfFile }
        return bytes[index]
    }

    private mutating func document() throws(Failure) {
        try value()
        while let container = stack.last {
            let byte = try next()
            let closer: UInt8 = container == .array ? UInt8(ascii: "]") : UInt8(ascii: "}")
            if byte == closer {
                index += 1
                stack.removeLast()
                continue
            }
            guard byte == UInt8(ascii: ",") else { throw invalid(index) }
            index += 1
            if try next() == closer { continue }  // trailing comma
            try member(in: container)
        }
        skipSpace()
        if index < bytes.count { throw invalid(index) }
    }

    /// One array element, or one "key": value pair of an object.
    private mutating func member(in container: Container) throws(Failure) {
        if container == .object {
            guard try next() == UInt8(ascii: "\"") else { throw invalid(index) }
            try string()
            guard try next() == UInt8(ascii: ":") else { throw invalid(index) }
            index += 1
        }
        try value()
    }

    /// A scalar, or the opening of a container (whose members `document` then walks).
    private mutating func value() throws(Failure) {
        let byte = try next()
        switch byte {
        case UInt8(ascii: "["), UInt8(ascii: "{"):
            guard stack.count < Self.maximumDepth else {
                throw Failure(message: "Too many nested arrays or dictionaries around character \(index + 1).", offset: index + 1)
            }
            let container: Container = byte == UInt8(ascii: "[") ? .array : .object
            index += 1
            stack.append(container)
            let closer: UInt8 = container == .array ? UInt8(ascii: "]") : UInt8(ascii: "}")
            if try next() == closer { return }  // empty; `document` closes it
            try member(in: container)
        case UInt8(ascii: "\""):
            try string()
        case UInt8(ascii: "t"): try literal("true")
        case UInt8(ascii: "f"): try literal("false")
        case UInt8(ascii: "n"): try literal("null")
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            try number()
        default:
            throw invalid(index)
        }
    }

    private mutating func literal(_ word: StaticString) throws(Failure) {
        let start = index
        for (offset, expected) in UnsafeBufferPointer(start: word.utf8Start, count: word.utf8CodeUnitCount).enumerated() {
            guard start + offset < bytes.count else { throw Self.endOfFile }
            guard bytes[start + offset] == expected else { throw invalid(start) }
        }
        index = start + word.utf8CodeUnitCount
    }

    private mutating func string() throws(Failure) {
        index += 1  // the opening quote
        while index < bytes.count {
            let byte = bytes[index]
            switch byte {
            case UInt8(ascii: "\""):
                index += 1
                return
            case UInt8(ascii: "\\"):
                guard index + 1 < bytes.count else { throw Self.endOfFile }
                let escape = bytes[index + 1]
                if escape == UInt8(ascii: "u") {
                    guard index + 5 < bytes.count else { throw Self.endOfFile }
                    for hex in bytes[(index + 2)...(index + 5)] where !Self.isHex(hex) {
                        throw Failure(message: "Invalid hex encoded sequence around character \(index).", offset: index)
                    }
                    index += 6
                } else if Array("\"\\/bfnrt".utf8).contains(escape) {
                    index += 2
                } else {
                    throw Failure(message: "Invalid escape sequence around character \(index).", offset: index)
                }
            case 0..<0x20:
                throw Failure(message: "Unescaped control character around character \(index).", offset: index)
            default:
                index += 1
            }
        }
        throw Self.endOfFile
    }

    private mutating func number() throws(Failure) {
        let start = index
        if bytes[index] == UInt8(ascii: "-") { index += 1 }
        guard index < bytes.count else { throw Self.endOfFile }
        guard Self.isDigit(bytes[index]) else { throw invalid(index) }
        if bytes[index] == UInt8(ascii: "0"), index + 1 < bytes.count, Self.isDigit(bytes[index + 1]) {
            throw Failure(message: "Number with leading zero around character \(index + 1).", offset: index + 1)
        }
        skipDigits()
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            index += 1
            guard index < bytes.count, Self.isDigit(bytes[index]) else { throw index < bytes.count ? invalid(index) : Self.endOfFile }
            skipDigits()
        }
        if index < bytes.count, bytes[index] | 0x20 == UInt8(ascii: "e") {
            index += 1
            if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") { index += 1 }
            guard index < bytes.count, Self.isDigit(bytes[index]) else { throw index < bytes.count ? invalid(index) : Self.endOfFile }
            skipDigits()
        }
        let text = String(decoding: bytes[start..<index], as: UTF8.self)
        if let parsed = Double(text), !parsed.isFinite {
            throw Failure(message: "Number \(text) is not representable in Swift.", offset: nil)
        }
    }

    private mutating func skipDigits() {
        while index < bytes.count, Self.isDigit(bytes[index]) { index += 1 }
    }

    private static func isDigit(_ byte: UInt8) -> Bool { byte >= 0x30 && byte <= 0x39 }

    private static func isHex(_ byte: UInt8) -> Bool { isDigit(byte) || (byte | 0x20 >= 0x61 && byte | 0x20 <= 0x66) }
}
