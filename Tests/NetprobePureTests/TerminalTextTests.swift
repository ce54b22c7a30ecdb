import NetprobeWire
import NetprobeVerdict
import NetprobeOutput
import NetprobeReport
import NetprobeSystem
import NetprobeNetwork
import NetprobeCheck
import NetprobeWatch
import Testing

@Suite struct TerminalTextTests {
    static let table: [(String, String)] = [
        ("plain text", "plain text"),
        ("café ✓ ログイン", "café ✓ ログイン"),
        ("\u{1B}[31mred\u{1B}[0m", "\\x1b[31mred\\x1b[0m"),
        ("\u{1B}]0;pwned\u{07}", "\\x1b]0;pwned\\x07"),
        ("bell\u{07}", "bell\\x07"),
        ("nul\u{00}byte", "nul\\x00byte"),
        ("del\u{7F}", "del\\x7f"),
        ("csi\u{9B}2J", "csi\\u{009b}2J"),
        ("c1 range \u{80}\u{9F}", "c1 range \\u{0080}\\u{009f}"),
        ("\u{202E}txt.exe", "\\u{202e}txt.exe"),
        ("\u{2066}isolate\u{2069}", "\\u{2066}isolate\\u{2069}"),
        ("mark\u{200F}", "mark\\u{200f}"),
        ("line\nbreak", "line\\nbreak"),
        ("tab\there", "tab\\there"),
        ("cr\rlf", "cr\\rlf"),
        ("\u{0C}\u{1F}", "\\x0c\\x1f"),
    ]

    @Test(arguments: table)
    func escapes(_ input: String, _ expected: String) {
        let escaped = TerminalText.escape(input)
        #expect(escaped == expected)
        #expect(!containsControl(escaped))
    }

    @Test func limitCountsInputCharactersAndMarksTheCut() {
        #expect(TerminalText.escape("abcdef", limit: 3) == "abc…")
        #expect(TerminalText.escape("abc", limit: 3) == "abc")
        #expect(TerminalText.escape("", limit: 0) == "")
        #expect(TerminalText.escape(String(repeating: "x", count: 600)).count == 513)
        // A cut never splits an escape sequence.
        #expect(TerminalText.escape("a\u{1B}b", limit: 2) == "a\\x1b…")
    }

    @Test func everyControlScalarIsEscaped() {
        let controls = (0x00...0x1F).map { Unicode.Scalar($0)! } + [Unicode.Scalar(0x7F)!] + (0x80...0x9F).map { Unicode.Scalar($0)! }
        var input = ""
        input.unicodeScalars.append(contentsOf: controls)
        let escaped = TerminalText.escape(input, limit: 10_000)
        #expect(!containsControl(escaped))
        #expect(escaped.unicodeScalars.allSatisfy { $0.isASCII && $0.value >= 0x20 && $0.value < 0x7F })
    }
}

/// A C0/C1 control character, DEL, or a bidi override/isolate/mark.
func isControl(_ scalar: Unicode.Scalar) -> Bool {
    switch scalar.value {
    case 0x00...0x1F, 0x7F...0x9F, 0x200E, 0x200F, 0x202A...0x202E, 0x2066...0x2069: return true
    default: return false
    }
}

func containsControl(_ text: String, allowingNewlines: Bool = false) -> Bool {
    text.unicodeScalars.contains { isControl($0) && !(allowingNewlines && $0 == "\n") }
}
