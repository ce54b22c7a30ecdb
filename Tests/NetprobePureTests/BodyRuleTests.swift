import NetprobeWire
import NetprobeVerdict
import NetprobeOutput
import NetprobeReport
import NetprobeSystem
import NetprobeNetwork
import NetprobeCheck
import NetprobeWatch
import Testing

/// The body rules of a probe set, judged on the body's bytes.
@Suite struct BodyRuleTests {
    struct Case: Sendable, CustomTestStringConvertible {
        var rule: BodyRule
        var body: [UInt8]
        var matches: Bool
        var testDescription: String { "\(rule) on \(body.count) bytes: \(matches)" }
    }

    private static func row(_ rule: BodyRule, _ body: String, _ matches: Bool) -> Case {
        Case(rule: rule, body: Array(body.utf8), matches: matches)
    }

    static let cases: [Case] = [
        row(.exact(""), "", true),
        row(.exact(""), " ", false),
        row(.exact("Microsoft Connect Test"), "Microsoft Connect Test", true),
        row(.exact("Microsoft Connect Test"), "Microsoft Connect Test\n", false),
        row(.exact("Microsoft Connect Test"), "Microsoft Connect Tes", false),
        row(.prefix("success"), "success\n", true),
        row(.prefix("success"), "success", true),
        row(.prefix("success"), "Success\n", false),
        row(.prefix("success"), "succes", false),
        row(.prefix("success"), " success", false),
        row(.prefix(""), "anything", true),
        row(.contains("Success"), "<HTML><HEAD><TITLE>Success</TITLE></HEAD><BODY>Success</BODY></HTML>", true),
        row(.contains("Success"), "Success", true),
        row(.contains("Success"), "xxSuccess", true),
        row(.contains("Success"), "Succes", false),
        row(.contains("Success"), "SuccesSuccess", true),
        row(.contains("Success"), "<title>Log in</title>", false),
        row(.contains(""), "", true),
        // Overlapping partial matches, where a search that restarts after a mismatch would miss.
        row(.contains("aab"), "aaab", true),
        row(.contains("abab"), "abaabab", true),
        row(.contains("abcabd"), "abcabcabd", true),
        row(.contains("abcabd"), "abcabcab", false),
        // Bytes, not Unicode: a precomposed é is not an e with a combining accent.
        row(.contains("caf\u{E9}"), "cafe\u{301}", false),
        row(.exact("caf\u{E9}"), "caf\u{E9}", true),
        row(.contains("Success"), "Success\u{301}", true),
    ]

    @Test(arguments: cases)
    func matchesOnBytes(_ row: Case) {
        #expect(row.rule.matches(row.body) == row.matches)
    }

    @Test func invalidUTF8AroundTheTextStillMatches() {
        let body: [UInt8] = [0xFF, 0xC3] + Array("Success".utf8) + [0x80, 0xFE]
        #expect(BodyRule.contains("Success").matches(body))
        #expect(!BodyRule.prefix("Success").matches(body))
        #expect(BodyRule.prefix("Success").matches(Array("Success".utf8) + [0xFF]))
    }

    /// A body the network controls cannot make the search quadratic: 64 KiB of near-misses
    /// against a long expected text ends with the right answer (a linear search examines each
    /// byte a bounded number of times; a naive one would do 2^16 x 2^12 comparisons).
    @Test func nearMissesAcrossAWholeCappedBodyAreAnsweredRight() {
        let needle = String(repeating: "a", count: 4095) + "b"
        let body = [UInt8](repeating: UInt8(ascii: "a"), count: 65_536)
        #expect(!BodyRule.contains(needle).matches(body))
        #expect(BodyRule.contains(needle).matches(body + Array("b".utf8)))
    }
}
