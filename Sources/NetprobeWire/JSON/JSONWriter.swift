/// A JSON value to write: what the report documents build. JSONEncoder cost every check a
/// sixth of an offline run to write one report; this a fraction of that. It writes the same bytes as JSONEncoder with
/// `[.sortedKeys, .withoutEscapingSlashes]` (and `.prettyPrinted`): JSONOutputTests holds it to that.
public indirect enum JSONOut {
    case null
    case bool(Bool)
    case int(Int)
    /// Must be finite: JSON has no NaN or infinity (JSONEncoder refused them too).
    case number(Double)
    case string(String)
    case array([JSONOut])
    /// Written with keys sorted by their UTF-8 bytes, whatever order they are given in.
    case object(KeyValuePairs<String, JSONOut>)

    /// nil as `null`: every key of the report is always present.
    public static func string(_ value: String?) -> JSONOut { value.map { .string($0) } ?? .null }
    public static func int(_ value: Int?) -> JSONOut { value.map { .int($0) } ?? .null }
    public static func bool(_ value: Bool?) -> JSONOut { value.map { .bool($0) } ?? .null }
    public static func number(_ value: Double?) -> JSONOut { value.map { .number($0) } ?? .null }
    public static func strings(_ values: [String]) -> JSONOut { .array(values.map { .string($0) }) }

    /// Compact (one line, for JSON Lines) unless `pretty`, which indents as JSONEncoder does.
    public func rendered(pretty: Bool = false) -> String {
        var writer = JSONTextWriter(pretty: pretty)
        writer.write(self, depth: 0)
        return String(decoding: writer.bytes, as: UTF8.self)
    }
}

private struct JSONTextWriter {
    let pretty: Bool
    var bytes: [UInt8] = []

    init(pretty: Bool) {
        self.pretty = pretty
        bytes.reserveCapacity(4096)
    }

    mutating func write(_ value: JSONOut, depth: Int) {
        switch value {
        case .null: append("null")
        case .bool(let flag): append(flag ? "true" : "false")
        case .int(let number): appendText(String(number))
        case .number(let number): appendText(Self.format(number))
        case .string(let text): writeString(text)
        case .array(let items):
            writeContainer("[", "]", count: items.count, depth: depth) { writer, index in
                writer.write(items[index], depth: depth + 1)
            }
        case .object(let pairs):
            // The documents list their keys in this order already; sorting them at every
            // write cost half of the writing of a 64-probe report.
            let order = Self.isSorted(pairs) ? Array(pairs.indices)
                : pairs.indices.sorted { Self.precedes(pairs[$0].key, pairs[$1].key) }
            writeContainer("{", "}", count: order.count, depth: depth) { writer, index in
                writer.writeString(pairs[order[index]].key)
                writer.append(writer.pretty ? " : " : ":")
                writer.write(pairs[order[index]].value, depth: depth + 1)
            }
        }
    }

    /// JSONEncoder's layouts: `[1,2]` compact; pretty, one item a line indented by two spaces,
    /// and an empty container as an opening line, an empty line and the closing bracket.
    private mutating func writeContainer(_ open: StaticString, _ close: StaticString, count: Int, depth: Int,
                                         item: (inout JSONTextWriter, Int) -> Void) {
        append(open)
        if pretty && count == 0 { bytes.append(UInt8(ascii: "\n")) }
        for index in 0..<count {
            if index > 0 { bytes.append(UInt8(ascii: ",")) }
            newline(depth: depth + 1)
            item(&self, index)
        }
        newline(depth: depth)
        append(close)
    }

    private mutating func newline(depth: Int) {
        guard pretty else { return }
        bytes.append(UInt8(ascii: "\n"))
        bytes.append(contentsOf: repeatElement(UInt8(ascii: " "), count: 2 * depth))
    }

    private mutating func appendText(_ text: String) {
        bytes.append(contentsOf: text.utf8)
    }

    private mutating func append(_ text: StaticString) {
        text.withUTF8Buffer { bytes.append(contentsOf: $0) }
    }

    static func isSorted(_ pairs: KeyValuePairs<String, JSONOut>) -> Bool {
        var index = pairs.startIndex
        while index + 1 < pairs.endIndex {
            if !precedes(pairs[index].key, pairs[index + 1].key) { return false }
            index += 1
        }
        return true
    }

    /// UTF-8 byte order, compared on the strings' contiguous storage: the generic
    /// `lexicographicallyPrecedes` over two UTF8Views cost a report a quarter of its writing.
    static func precedes(_ first: String, _ second: String) -> Bool {
        var first = first, second = second
        return first.withUTF8 { left in
            second.withUTF8 { right in
                for index in 0..<min(left.count, right.count) where left[index] != right[index] {
                    return left[index] < right[index]
                }
                return left.count < right.count
            }
        }
    }

    /// As JSONEncoder: `"` and `\` escaped, the short forms for \b \t \n \f \r, other C0 controls
    /// as \u00xx (lower-case hex); `/`, DEL, C1 and all non-ASCII pass through as UTF-8.
    private mutating func writeString(_ text: String) {
        bytes.append(UInt8(ascii: "\""))
        var text = text
        text.withUTF8 { utf8 in
            // Runs of bytes that need no escape are copied whole.
            var runStart = 0
            for index in 0..<utf8.count {
                let byte = utf8[index]
                guard byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") else { continue }
                bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart..<index]))
                escape(byte)
                runStart = index + 1
            }
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart...]))
        }
        bytes.append(UInt8(ascii: "\""))
    }

    private mutating func escape(_ byte: UInt8) {
        switch byte {
        case UInt8(ascii: "\""): append("\\\"")
        case UInt8(ascii: "\\"): append("\\\\")
        case 0x08: append("\\b")
        case 0x09: append("\\t")
        case 0x0A: append("\\n")
        case 0x0C: append("\\f")
        case 0x0D: append("\\r")
        default:
            append("\\u00")
            bytes.append(HexDigit.lowercase(byte >> 4))
            bytes.append(HexDigit.lowercase(byte & 0xF))
        }
    }

    /// JSONEncoder prints a Double's shortest round-trip `description` less a trailing ".0"
    /// (1500, not 1500.0; 1e-05 and 1e+16 as they are).
    static func format(_ number: Double) -> String {
        precondition(number.isFinite, "JSON has no \(number)")
        let text = number.description
        return text.hasSuffix(".0") ? String(text.dropLast(2)) : text
    }
}
