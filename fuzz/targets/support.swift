@testable import NetprobeWire
@testable import NetprobeVerdict
@testable import NetprobeOutput
@testable import NetprobeReport

/// What the targets share: a writer for round trips (recursive: the reader caps depth at 64),
/// and a way to cut one fuzz input into several fields.
enum FuzzJSON {
    static func write(_ value: JSONValue) -> String {
        switch value.content {
        case .null: return "null"
        case .bool(let flag): return flag ? "true" : "false"
        case .number(let number): return "\(number)"
        case .string(let text): return JSONPath.quoted(text)
        case .array(let items): return "[" + items.map(write).joined(separator: ",") + "]"
        case .object(let members):
            return "{" + members.map { JSONPath.quoted($0.key.text) + ":" + write($0.value) }.joined(separator: ",") + "}"
        }
    }

    /// Equal apart from positions. Keys (JSONKey) and strings are compared by their UTF-8 bytes,
    /// the reader's rule for names: a key or string that came back as another spelling of the
    /// same characters (canonically equivalent, but other code units) has changed.
    static func sameContent(_ a: JSONValue, _ b: JSONValue) -> Bool {
        switch (a.content, b.content) {
        case (.array(let x), .array(let y)): return x.count == y.count && zip(x, y).allSatisfy(sameContent)
        case (.object(let x), .object(let y)):
            return x.count == y.count && x.allSatisfy { key, value in y[key].map { sameContent(value, $0) } ?? false }
        case (.string(let x), .string(let y)): return x.utf8.elementsEqual(y.utf8)
        case (.number(let x), .number(let y)): return x == y
        default: return a.content == b.content
        }
    }
}

/// Reads fields off the front of a fuzz input.
struct FuzzInput {
    var bytes: ArraySlice<UInt8>

    init(_ data: UnsafePointer<UInt8>, _ size: Int) { bytes = Array(UnsafeBufferPointer(start: data, count: size))[...] }

    mutating func byte() -> UInt8 { bytes.popFirst() ?? 0 }

    /// Bytes up to (not including) the next `separator`, or the rest.
    mutating func field(until separator: UInt8) -> [UInt8] {
        let end = bytes.firstIndex(of: separator) ?? bytes.endIndex
        defer { bytes = bytes[min(end + 1, bytes.endIndex)...] }
        return Array(bytes[..<end])
    }

    var rest: [UInt8] { Array(bytes) }
}
