@testable import NetprobeWire
@testable import NetprobeVerdict
@testable import NetprobeOutput
@testable import NetprobeReport
@testable import NetprobeSystem
@testable import NetprobeNetwork
@testable import NetprobeCheck
@testable import NetprobeWatch
import Testing

/// The output edges' rules: U+FFFD for controls in machine-readable sinks, visible escapes
/// on the terminal, line breaks kept for multi-line messages.
@Suite struct NetworkTextTests {
    @Test(arguments: [
        ("plain text", "plain text"),
        ("a\u{1B}[2Jb", "a\u{FFFD}[2Jb"),
        ("csi\u{9B}31m", "csi\u{FFFD}31m"),
        ("nul\u{0}del\u{7F}c1end\u{9F}", "nul\u{FFFD}del\u{FFFD}c1end\u{FFFD}"),
        ("tab\tnewline\n", "tab\u{FFFD}newline\u{FFFD}"),
        ("\u{A0}nbsp and é stay", "\u{A0}nbsp and é stay"),
    ])
    func controlsAreReplaced(_ input: String, _ expected: String) {
        #expect(NetworkText.jsonValue(input) == expected)
        #expect(NetworkText.labelValue(input) == expected)
        #expect(NetworkText.environmentValue(input) == expected)
    }

    @Test func nilStaysNil() {
        #expect(NetworkText.jsonValue(nil as String?) == nil)
    }

    @Test func escapeLinesKeepsLineBreaksAndIsIdempotent() {
        let message = "Error: Unknown option '--\u{1B}[31m'\nUsage: netprobe\t\u{9B}"
        let once = TerminalText.escapeLines(message)
        #expect(once == "Error: Unknown option '--\\x1b[31m'\nUsage: netprobe\\t\\u{009b}")
        #expect(TerminalText.escapeLines(once) == once)
        #expect(!once.unicodeScalars.contains { $0.value < 0x20 && $0 != "\n" })
        #expect(TerminalText.escapeLines("a\tb\u{1B}\nc", keepTabs: true) == "a\tb\\x1b\nc")
    }

    @Test func portalMarkupKeepsC1ReferencesAsWritten() throws {
        let page = Array("<WISPAccessGatewayParam><Redirect><LocationName>Cafe &#x9b;31m &#155; &#x85; &#xe9;</LocationName></Redirect></WISPAccessGatewayParam>".utf8)
        let info = try #require(WISPrParser.parse(page))
        #expect(info.locationName == "Cafe &#x9b;31m &#155; &#x85; é")
    }

    @Test func plainHTTPCaptivePortalAPIURIs() {
        #expect(CapportReport.isPlainHTTP("http://capport.example/api"))
        #expect(CapportReport.isPlainHTTP("HTTP://capport.example/api"))
        #expect(!CapportReport.isPlainHTTP("https://capport.example/api"))
        #expect(!CapportReport.isPlainHTTP("http://%zz/"))
        #expect(!CapportReport.isPlainHTTP(CapportReport.unrestrictedURI))
    }
}

/// The byte-level trimming that replaced Character-by-Character trimming (which was the slower).
@Suite struct ASCIITrimmingTests {
    @Test(arguments: [
        ("  7 ", "7"), ("\t7\t", "7"), ("7", "7"), ("", ""), (" \t ", ""),
        (" café ", "café"), ("\u{00A0}x\u{00A0}", "\u{00A0}x\u{00A0}"), (" a b ", "a b"),
    ])
    func spacesAndTabs(_ input: String, _ expected: String) {
        #expect(input.trimmingSpacesAndTabs == expected)
        #expect(Substring(input).trimmingSpacesAndTabs == expected)
    }

    @Test func aPredicateOfOurOwn() {
        #expect("\r\n x \n".trimmingASCII { $0 == 0x0A || $0 == 0x0D || $0 == 0x20 } == "x")
        #expect("xyx".trimmingASCII { $0 == UInt8(ascii: "x") } == "y")
    }

    @Test func hexDigitsAreLowerCaseASCII() {
        #expect(String(decoding: (0...15).map { HexDigit.lowercase(UInt8($0)) }, as: UTF8.self) == "0123456789abcdef")
    }
}
