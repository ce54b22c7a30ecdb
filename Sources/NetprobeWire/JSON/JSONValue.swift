/// Where a value (or a mistake) is in a JSON text: what an editor shows, so a person can go there.
public struct JSONPosition: Sendable, Equatable, CustomStringConvertible {
    /// 1-based line.
    public var line: Int
    /// 1-based column in Unicode scalars (a UTF-8 BOM does not count).
    public var column: Int
    /// 0-based byte offset into the text as given.
    public var offset: Int

    public init(line: Int, column: Int, offset: Int) {
        self.line = line
        self.column = column
        self.offset = offset
    }

    public var description: String { "line \(line), column \(column)" }
}

/// A parsed JSON value and where it starts. It keeps the distinctions validation needs
/// (bool vs number, integer vs fraction) so errors can say exactly what was found.
/// Only `JSONReader` makes these from text: there is no second way in.
public struct JSONValue: Sendable, Equatable {
    /// Not `indirect`: arrays and dictionaries already hold their elements out of line, and an
    /// indirect enum would put every string, number and boolean in a heap box of its own.
    public enum Content: Sendable, Equatable {
        case null
        case bool(Bool)
        case number(Double)
        case string(String)
        case array([JSONValue])
        /// Keys are unique: the reader rejects a document that repeats one.
        case object([JSONKey: JSONValue])
    }

    public var content: Content
    public var position: JSONPosition

    public init(_ content: Content, at position: JSONPosition) {
        self.content = content
        self.position = position
    }

    /// How a person would name this kind of value in an error message.
    public var kindName: String {
        switch content {
        case .null: return "null"
        case .bool: return "a boolean"
        case .number: return "a number"
        case .string: return "a string"
        case .array: return "an array"
        case .object: return "an object"
        }
    }
}

/// An object's key. RFC 8259 §8.3 compares names code unit by code unit; Swift's `String`
/// equality is canonical equivalence, under which a precomposed "é" and "e" + U+0301 are one
/// key and KELVIN SIGN (U+212A) equals "K". So a key is equal, hashed and ordered by its UTF-8
/// bytes (the same order as by code points), both when the reader looks for a repeated key
/// and when a consumer looks one up.
public struct JSONKey: Hashable, Comparable, Sendable, ExpressibleByStringLiteral, CustomStringConvertible {
    public let text: String

    public init(_ text: String) { self.text = text }
    public init(stringLiteral text: String) { self.text = text }

    public var description: String { text }

    public static func == (lhs: JSONKey, rhs: JSONKey) -> Bool {
        let left = lhs.text.utf8, right = rhs.text.utf8
        guard left.count == right.count else { return false }
        // Native strings are stored as UTF-8: compare the two buffers, not index by index
        // through the views (every dictionary lookup of a key ends here).
        let same = left.withContiguousStorageIfAvailable { left in
            right.withContiguousStorageIfAvailable { right in
                for offset in 0..<left.count where left[offset] != right[offset] { return false }
                return true
            }
        }
        if let same = same ?? nil { return same }
        return left.elementsEqual(right)
    }

    public func hash(into hasher: inout Hasher) {
        // The reader's keys and literals are stored as UTF-8: hashed in one call, not byte by byte.
        if let done: Void = text.utf8.withContiguousStorageIfAvailable({ hasher.combine(bytes: UnsafeRawBufferPointer($0)) }) {
            return done
        }
        for byte in text.utf8 { hasher.combine(byte) }
    }

    public static func < (lhs: JSONKey, rhs: JSONKey) -> Bool {
        lhs.text.utf8.lexicographicallyPrecedes(rhs.text.utf8)
    }
}

/// JSONPath-style locations (`$.probes[2].name`), the form every config error uses.
public enum JSONPath {
    public static let root = "$"

    public static func member(_ parent: String, _ key: String) -> String {
        // A key that is not a plain word would make `.key` ambiguous (`a.b`, `x[0]`): quote it.
        let plain = !key.isEmpty && key.utf8.allSatisfy { byte in
            (byte >= 0x30 && byte <= 0x39) || (byte | 0x20 >= 0x61 && byte | 0x20 <= 0x7A) || byte == 0x5F || byte == 0x2D || byte == 0x24
        }
        return plain ? "\(parent).\(key)" : "\(parent)[\(quoted(key))]"
    }

    public static func element(_ parent: String, _ index: Int) -> String { "\(parent)[\(index)]" }

    /// A JSON string literal of `text` (quotes, backslashes and controls escaped).
    package static func quoted(_ text: String) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\t": out += "\\t"
            case "\r": out += "\\r"
            case _ where scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value):
                let hex = String(scalar.value, radix: 16)
                out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }
}
