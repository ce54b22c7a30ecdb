@testable import NetprobeWire
@testable import NetprobeVerdict
@testable import NetprobeOutput
@testable import NetprobeReport
@testable import NetprobeSystem
@testable import NetprobeNetwork
@testable import NetprobeCheck
@testable import NetprobeWatch
import Testing

private let limits = JSONReader.Limits(maxBytes: 1 << 20, maxDepth: 32)

private let selections: [(String, JSONSelection)] = [
    ("watch record", WatchLogRecord.selection), ("whole", .whole), ("top only", [:]),
    ("nested", ["a": .whole, "b": ["c": .whole, "é": ["d": .whole]]]),
]

/// Both readers on `bytes`: the same decision, the same failure, and the selective value equal
/// to what the selection keeps of the full one (positions included).
private func agree(_ bytes: [UInt8], _ selection: JSONSelection, _ label: String) {
    let full = Result { () throws(JSONReader.Failure) in try JSONReader.parse(bytes, limits: limits) }
    let selective = Result { () throws(JSONReader.Failure) in
        try bytes.withUnsafeBufferPointer { (buffer) throws(JSONReader.Failure) in
            try JSONReader.parse(buffer, limits: limits, selecting: selection)
        }
    }
    let scanned = bytes.withUnsafeBufferPointer { buffer in
        var scanner = JSONReader(bytes: buffer, limits: limits, nodes: selection.nodes)
        return try? scanner.document()
    }
    switch (full, selective) {
    case (.success(let value), .success(let selected)):
        #expect(selected == selection.filter(value), "\(label)")
        #expect(scanned == selected, "\(label): the scanner itself accepted it")
    case (.failure(let expected), .failure(let failure)):
        #expect(failure == expected, "\(label)")
        #expect(scanned == nil, "\(label): the scanner itself refused it")
    default:
        Issue.record("\(label): the readers disagree: \(full) against \(selective)")
    }
}

@Suite struct JSONSelectionTests {
    static let valid: [String] = [
        #"{"timestamp":"2026-03-02T00:00:00Z","verdict":"online","reason":"x","portal":{"url":"http://p/","expires_at":null},"#
            + #""paths":[{"interface":"eth0","family":"ipv4","verdict":"online","reason":"r","portal":null,"x":[1,{"y":2}]}],"#
            + #""probes":[{"operator":"apple","timings":{"total_ms":12.5,"dns_ms":1}},{"operator":"g","timings":null}],"dns":{}}"#,
        "\u{FEFF}{\"a\":1}", "{\n  \"a\": [1,\n 2],\r\n\t\"b\": {\"c\": \"\u{E9}\u{1F600}\", \"d\": 3}\n}",
        #"{"\u00e9":{"d":"\ud83d\ude00\n\"","e":-0.5e-3},"é\u0301":1,"b":{"c":true,"c\u0000":false}}"#,
        #"[{"a":[]},{"a":{}},{"b":[[[]]]},"a",1e308,-0,null]"#, #""just a string""#, "12", "true",
        "{" + (0..<40).map { #""k\#($0)":\#($0)"# }.joined(separator: ",") + "}",
        "{\"big\":1.7976931348623157e308,\"small\":1e-400,\"zero\":0.0000e999999999999}",
    ]

    static let invalid: [String] = [
        "", " ", "{", "[1,]", #"{"a":1,}"#, #"{"a":1,"a":2}"#, #"{"x":{"a":1,"\u0061":2}}"#,
        #"{"a":{"k":1},"b":{"k":1,"k":2}}"#, "{" + (0..<40).map { #""k\#($0 % 39)":1"# }.joined(separator: ",") + "}",
        #"{"é":1,"\u00e9":2}"#, "[1e400]", "[-1e309]", "[1.8e308]", "[\(String(repeating: "9", count: 309))]",
        String(repeating: "1", count: 600), "01", "[1.]", "[1e+]", "[-]", "[tru]", "nul", #"["\q"]"#, #"["\u12G4"]"#,
        #"["\uD800"]"#, #"["\uD83Dx"]"#, #"["\uDC00"]"#, "[\"a\u{01}\"]", #"{"a" 1}"#, "{1:2}", "[1 2]", "[1] x",
        String(repeating: "[", count: 33) + String(repeating: "]", count: 33),
        #"{"dns":"# + String(repeating: "[", count: 32) + String(repeating: "]", count: 32) + "}",
    ]

    static let invalidBytes: [[UInt8]] = [
        [0x22, 0xC3, 0x28, 0x22], [0x22, 0xED, 0xA0, 0x80, 0x22], [0x22, 0xF4, 0x90, 0x80, 0x80, 0x22], [0x22, 0xE2, 0x82],
        [0xFE, 0xFF, 0, 0x31], [0x31, 0], [0x5B, 0xC0, 0x5D], Array(#"{"a":"\#u{E9}""#.utf8),
    ]

    @Test func agreesWithTheFullReaderOnValidDocuments() {
        for text in Self.valid {
            for (name, selection) in selections { agree(Array(text.utf8), selection, "\(name): \(text)") }
        }
    }

    @Test func refusesWhatTheFullReaderRefusesWithItsFailure() {
        for bytes in Self.invalid.map({ Array($0.utf8) }) + Self.invalidBytes {
            for (name, selection) in selections { agree(bytes, selection, "\(name): \(bytes)") }
        }
    }

    @Test func theByteCapIsTheFullReaders() {
        let text = Array(#"{"a":"\#(String(repeating: "x", count: 100))"}"#.utf8)
        let small = JSONReader.Limits(maxBytes: 50)
        let failure = Result { () throws(JSONReader.Failure) in
            try text.withUnsafeBufferPointer { (buffer) throws(JSONReader.Failure) in
                try JSONReader.parse(buffer, limits: small, selecting: .whole)
            }
        }
        guard case .failure(let error) = failure else { Issue.record("a text over the cap was read"); return }
        #expect(error.message.contains("larger than 50 bytes"))
    }

    @Test func aWatchRecordKeepsOnlyTheMembersTheSummaryReads() throws {
        let bytes = Array(Self.valid[0].utf8)
        let value = try bytes.withUnsafeBufferPointer { (buffer) throws(JSONReader.Failure) in
            try JSONReader.parse(buffer, limits: limits, selecting: WatchLogRecord.selection)
        }
        guard case .object(let members) = value.content else { Issue.record("not an object"); return }
        #expect(members.keys.map(\.text).sorted() == ["paths", "portal", "probes", "reason", "timestamp", "verdict"])
        guard case .array(let probes)? = members["probes"]?.content, case .object(let probe) = probes[0].content,
              case .object(let timings)? = probe["timings"]?.content else { Issue.record("no probe timings"); return }
        #expect(timings.keys.map(\.text) == ["total_ms"])
        #expect(timings["total_ms"]?.content == .number(12.5))
    }
}
