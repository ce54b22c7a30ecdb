import Foundation
@testable import NetprobeWire
@testable import NetprobeVerdict
@testable import NetprobeOutput
@testable import NetprobeReport
@testable import NetprobeSystem
@testable import NetprobeNetwork
@testable import NetprobeCheck
@testable import NetprobeWatch
import Testing

private let limits = JSONReader.Limits(maxBytes: 1 << 20)

private func read(_ bytes: [UInt8], _ limits: JSONReader.Limits = limits) -> Result<JSONValue, JSONReader.Failure> {
    Result { () throws(JSONReader.Failure) in try JSONReader.parse(bytes, limits: limits) }
}

private func read(_ text: String) -> Result<JSONValue, JSONReader.Failure> { read(Array(text.utf8)) }

struct InvalidJSON: Sendable, CustomTestStringConvertible {
    var label: String
    var bytes: [UInt8]
    var says: String
    var line: Int
    var column: Int
    var path: String
    var testDescription: String { label }
}

private func bad(_ label: String, _ text: String, _ says: String, _ line: Int, _ column: Int, _ path: String = "$") -> InvalidJSON {
    InvalidJSON(label: label, bytes: Array(text.utf8), says: says, line: line, column: column, path: path)
}

private func bad(_ label: String, bytes: [UInt8], _ says: String, _ line: Int, _ column: Int, _ path: String = "$") -> InvalidJSON {
    InvalidJSON(label: label, bytes: bytes, says: says, line: line, column: column, path: path)
}

@Suite struct JSONReaderTests {
    static let invalid: [InvalidJSON] = [
        bad("empty", "", "unexpected end of input; expected a value", 1, 1),
        bad("only space", " \n ", "unexpected end of input; expected a value", 2, 2),
        bad("trailing comma in an array", "[1,]", "a trailing comma before ']'", 1, 4),
        bad("trailing comma in an object", #"{"a":1,}"#, "a trailing comma before '}'", 1, 8),
        bad("missing comma in an object", #"{"a":1 "b":2}"#, #"expected ',' or '}', found '"'"#, 1, 8),
        bad("missing comma in an array", "[1 2]", "expected ',' or ']', found '2'", 1, 4),
        bad("unclosed array", "[1, [2", "unexpected end of input; expected ',' or ']'", 1, 7, "$[1]"),
        bad("duplicate key deep inside", #"{"probes":[{},{},{"name":"a","name":"b"}]}"#,
            #"duplicate key "name""#, 1, 30, "$.probes[2].name"),
        bad("duplicate key spelled with an escape", #"{"a":1,"\u0061":2}"#, #"duplicate key "a""#, 1, 8, "$.a"),
        bad("duplicate odd key is quoted in the path", #"{"x":{"a.b":1,"a.b":2}}"#, #"duplicate key "a.b""#, 1, 15, #"$.x["a.b"]"#),
        bad("key is not a string", "{1:2}", "expected a string key, found '1'", 1, 2),
        bad("no colon", #"{"a" 1}"#, "expected ':' after the key, found '1'", 1, 6, "$.a"),
        bad("leading zero", "01", "a number with a leading zero", 1, 2),
        bad("number beyond double", "[1e400]", "out of range", 1, 2, "$[0]"),
        bad("negative number beyond double", "-1e309", "out of range", 1, 1),
        bad("lone minus", "-", "unexpected end of input; expected a digit", 1, 2),
        bad("fraction without digits", "1.", "unexpected end of input; expected a digit after '.'", 1, 3),
        bad("exponent without digits", "1e+", "expected a digit in the exponent", 1, 4),
        bad("very long number", String(repeating: "1", count: 600), "a number longer than 512 characters", 1, 1),
        bad("NaN", "NaN", "expected a value, found 'N'", 1, 1),
        bad("Infinity", "[-Infinity]", "expected a digit, found 'I'", 1, 3, "$[0]"),
        bad("bad literal", "[tru]", "invalid literal; expected true, false or null", 1, 2, "$[0]"),
        bad("bad escape", #""a\qb""#, "an invalid escape sequence", 1, 3),
        bad("short unicode escape", #""\u12G4""#, "expected four hex digits", 1, 2),
        bad("lone high surrogate", #""\uD800""#, #"a lone high surrogate \uD800"#, 1, 2),
        bad("high surrogate and a letter", #""\uD83Dx""#, "a lone high surrogate", 1, 2),
        bad("lone low surrogate", #"["\uDC00"]"#, #"a lone low surrogate \uDC00"#, 1, 3, "$[0]"),
        bad("raw control character", "\"a\u{01}\"", "an unescaped control character (U+0001)", 1, 3),
        bad("raw line break in a string", "{\"a\":\"x\ny\"}", "an unescaped control character (U+000A)", 1, 8, "$.a"),
        bad("unterminated string", #"["abc"#, "unexpected end of input inside a string", 1, 6, "$[0]"),
        bad("text after the value", #"{"a":1} x"#, "expected nothing after the JSON value, found 'x'", 1, 9),
        bad("second value", "1 2", "expected nothing after the JSON value, found '2'", 1, 3),
        bad("lines and columns count", "{\n  \"version\": 1,\n  \"probes\": [ x ]\n}", "expected a value, found 'x'", 3, 15, "$.probes[0]"),
        bad("columns count characters, not bytes", #"["é", x]"#, "expected a value, found 'x'", 1, 7, "$[1]"),
        bad("non-ASCII outside a string", "[é]", "expected a value, found U+00E9", 1, 2, "$[0]"),
        bad("invalid UTF-8 byte", bytes: Array(#"["a"#.utf8) + [0xFF] + Array(#""]"#.utf8), "invalid UTF-8 (byte 0xFF)", 1, 4, "$[0]"),
        bad("overlong encoding", bytes: [0x22, 0xC0, 0x80, 0x22], "invalid UTF-8 (byte 0xC0)", 1, 2),
        bad("UTF-8 encoded surrogate", bytes: [0x22, 0xED, 0xA0, 0x80, 0x22], "invalid UTF-8 (byte 0xA0 after 0xED)", 1, 2),
        bad("above U+10FFFF", bytes: [0x22, 0xF4, 0x90, 0x80, 0x80, 0x22], "invalid UTF-8 (byte 0x90 after 0xF4)", 1, 2),
        bad("truncated sequence", bytes: [0x22, 0xE2, 0x82], "the text ends inside a character", 1, 2),
        bad("invalid UTF-8 outside a string", bytes: [0x5B, 0xFE, 0x5D], "invalid UTF-8 (byte 0xFE)", 1, 2, "$[0]"),
        bad("UTF-16LE with BOM", bytes: [0xFF, 0xFE, 0x7B, 0x00, 0x7D, 0x00], "UTF-16 or UTF-32", 1, 1),
        bad("UTF-16BE with BOM", bytes: [0xFE, 0xFF, 0x00, 0x7B, 0x00, 0x7D], "UTF-16 or UTF-32", 1, 1),
        bad("UTF-16BE without BOM", bytes: [0x00, 0x7B, 0x00, 0x7D], "looks like UTF-16 or UTF-32", 1, 1),
        bad("UTF-32LE without BOM", bytes: [0x5B, 0, 0, 0, 0x5D, 0, 0, 0], "looks like UTF-16 or UTF-32", 1, 1),
        bad("after a UTF-8 BOM columns start again", bytes: [0xEF, 0xBB, 0xBF] + Array("x".utf8), "found 'x'", 1, 1),
        bad("too deep", String(repeating: "[", count: 65), "nested deeper than 64 levels", 1, 65,
            "$" + String(repeating: "[0]", count: 64)),
        bad("JSONDecoder's old crash (SIGILL): 600 deep ending in [", String(repeating: "[", count: 600), "nested deeper than 64 levels", 1, 65,
            "$" + String(repeating: "[0]", count: 64)),
    ]

    @Test(arguments: invalid)
    func refusesWithLineColumnAndPath(_ c: InvalidJSON) {
        guard case .failure(let failure) = read(c.bytes) else {
            Issue.record("accepted \(c.label)")
            return
        }
        #expect(failure.message.contains(c.says), "\(failure)")
        #expect(failure.position.line == c.line && failure.position.column == c.column, "\(failure)")
        #expect(failure.path == c.path, "\(failure)")
        #expect(failure.description == "\(failure.message) at \(failure.path) (line \(c.line), column \(c.column))")
    }

    @Test func readsEveryKindOfValue() throws {
        let value = try read(#"{"a":[1,-2.5e3,true,false,null,"x\u00e9\ud83d\ude00\n\"\\\/\b\f\r\t\u0000",{},[]],"b":{"c":0.5E+1}}"#).get()
        guard case .object(let top) = value.content, case .array(let items)? = top["a"]?.content else {
            Issue.record("\(value)")
            return
        }
        #expect(items.map(\.content) == [.number(1), .number(-2500), .bool(true), .bool(false), .null,
                                          .string("xé😀\n\"\\/\u{08}\u{0C}\r\t\u{00}"), .object([:]), .array([])])
        guard case .object(let inner)? = top["b"]?.content else { return }
        #expect(inner["c"]?.content == .number(5))
    }

    /// RFC 8259 compares names code unit by code unit, not by Unicode canonical equivalence:
    /// a precomposed é and e + U+0301 are two keys, and KELVIN SIGN is not K.
    @Test func keysAreComparedByTheirCodeUnits() throws {
        for text in [#"{"\u00e9":1,"e\u0301":2}"#, "{\"\u{E9}\":1,\"e\u{301}\":2}", #"{"\u212A":1,"K":2}"#, #"{"\u2126":1,"\u03a9":2}"#] {
            let value = try read(text).get()
            guard case .object(let members) = value.content else {
                Issue.record("\(value)")
                continue
            }
            #expect(members.count == 2, "\(text)")
        }
        let kelvin = try read(#"{"\u212A":1,"K":2}"#).get()
        guard case .object(let members) = kelvin.content else { return }
        #expect(members["K"]?.content == .number(2), "the key K is found as itself, not as KELVIN SIGN")
        #expect(members["\u{212A}"]?.content == .number(1))
        #expect(members.count == 2 && members["k"] == nil)
        // The same code units spelled two ways are still the same key.
        #expect(throws: JSONReader.Failure.self) { try read(#"{"\u00e9":1,"é":2}"#).get() }
        #expect(throws: JSONReader.Failure.self) { try read(#"{"\u212A":1,"\u212a":2}"#).get() }
    }

    @Test(arguments: ["1", " true ", "null", #""s""#, "-0", "0.5", "1E+2", "[[]]", "\u{FEFF}[1]", "[1,\n2]\n"])
    func acceptsTopLevelScalarsAndSmallDocuments(_ text: String) throws {
        #expect(throws: Never.self) { try read(text).get() }
    }

    @Test func valuesKnowWhereTheyAre() throws {
        let value = try read("{\n  \"a\": [1,\n    \"b\"],\n\t\"é\": {\"x\": \"é\", \"y\": 2}}").get()
        guard case .object(let top) = value.content, case .array(let items)? = top["a"]?.content,
              case .object(let inner)? = top["é"]?.content else {
            Issue.record("\(value)")
            return
        }
        #expect(value.position == JSONPosition(line: 1, column: 1, offset: 0))
        #expect(items[0].position.line == 2 && items[0].position.column == 9)
        #expect(items[1].position.line == 3 && items[1].position.column == 5)
        #expect(inner["x"]?.position.column == 13)
        #expect(inner["y"]?.position.column == 23, "columns count the é before it as one")
    }

    /// The limit is the defence, and it is met at once: no work proportional to what lies beyond it.
    @Test func hundredThousandLevelsFailQuickly() {
        let deep = [UInt8](repeating: UInt8(ascii: "["), count: 100_000) + [UInt8](repeating: UInt8(ascii: "]"), count: 100_000)
        let clock = ContinuousClock()
        var result: Result<JSONValue, JSONReader.Failure>?
        let elapsed = clock.measure { result = read(deep) }
        guard case .failure(let failure)? = result else {
            Issue.record("100,000 levels were accepted")
            return
        }
        #expect(failure.message == "arrays and objects nested deeper than 64 levels")
        #expect(elapsed < .milliseconds(200), "\(elapsed)")
    }

    @Test func objectsNestDeepAsTheLimitAllows() throws {
        let depth = 64
        let text = String(repeating: #"{"k":"#, count: depth - 1) + "{}" + String(repeating: "}", count: depth - 1)
        #expect(throws: Never.self) { try read(text).get() }
        guard case .failure(let failure) = read(Array(#"{"k":"#.utf8) + Array(text.utf8) + [UInt8(ascii: "}")]) else {
            Issue.record("65 levels were accepted")
            return
        }
        #expect(failure.path == "$" + String(repeating: ".k", count: 64))
    }

    @Test func theByteCapIsCheckedFirst() {
        guard case .failure(let failure) = read(Array("[1,2]".utf8), JSONReader.Limits(maxBytes: 4)) else {
            Issue.record("5 bytes accepted under a 4-byte cap")
            return
        }
        #expect(failure.message == "the text is larger than 4 bytes")
        #expect(throws: Never.self) { try read(Array("[1,2]".utf8), JSONReader.Limits(maxBytes: 5)).get() }
    }

    /// A megabyte of small values, and a megabyte-long string, in linear time.
    @Test func bigInputsAreReadWhole() throws {
        let count = 400_000
        let numbers = "[" + Array(repeating: "1", count: count).joined(separator: ",") + "]"
        let clock = ContinuousClock()
        var parsed: JSONValue?
        let elapsed = try clock.measure { parsed = try read(numbers).get() }
        guard case .array(let items)? = parsed?.content else { throw HarnessFailure("not an array") }
        #expect(items.count == count)
        #expect(elapsed < .seconds(5), "\(elapsed)")

        let long = "\"" + String(repeating: "é", count: 400_000) + "\""
        guard case .string(let text) = try read(long).get().content else { throw HarnessFailure("not a string") }
        #expect(text.count == 400_000)
        guard case .failure(let failure) = read(long + " x") else { throw HarnessFailure("trailing x accepted") }
        #expect(failure.position.column == 400_004, "a column after 400,000 two-byte characters: \(failure)")
    }

    @Test func pathsQuoteKeysThatAreNotWords() {
        #expect(JSONPath.member("$", "name") == "$.name")
        #expect(JSONPath.member("$", "$schema") == "$.$schema")
        #expect(JSONPath.member("$", "a b") == #"$["a b"]"#)
        #expect(JSONPath.member("$", "") == #"$[""]"#)
        #expect(JSONPath.member("$", "\u{1B}[2J\"") == #"$["\u001b[2J\""]"#)
    }
}

struct HarnessFailure: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
