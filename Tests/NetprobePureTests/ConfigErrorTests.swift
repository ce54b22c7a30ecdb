import Foundation
import NetprobeWire
import NetprobeVerdict
import NetprobeOutput
import NetprobeReport
import NetprobeSystem
import NetprobeNetwork
import NetprobeCheck
import NetprobeWatch
import Testing

/// Builders for small probes.json texts. The base quorum is 1 so that a case
/// with one mistake should produce exactly one issue.
private func probe(name: String = "p", url: String = "http://a.example/", extra: String = "",
                   expect: String = #"{"status":[204]}"#) -> String {
    #"{"name":"\#(name)","url":"\#(url)"\#(extra),"expect":\#(expect)}"#
}

private let second = probe(name: "q", url: "http://b.example/")

private func doc(_ probes: [String] = [probe(), second], top: String = #""version":1,"quorum":1"#) -> String {
    #"{\#(top),"probes":[\#(probes.joined(separator: ","))]}"#
}

struct ConfigErrorCase: Sendable, CustomTestStringConvertible {
    var label: String
    var json: String
    /// The JSON path the issue must name.
    var path: String
    /// Fragments of what was expected / found that the message must contain.
    var says: [String]
    var testDescription: String { label }
}

private func bad(_ label: String, _ json: String, _ path: String, _ says: String...) -> ConfigErrorCase {
    ConfigErrorCase(label: label, json: json, path: path, says: says)
}

@Suite struct ConfigErrorTests {
    static let cases: [ConfigErrorCase] = [
        // A syntax error names the place where reading stopped, not just the document.
        bad("invalid JSON", #"{"version":1,"probes":["#, "$.probes[0]", "not valid JSON", "unexpected end of input", "line 1, column 24"),
        bad("duplicate key", doc([probe(), probe(name: "q", url: "http://b.example/", extra: #","url":"http://c.example/""#)]),
            "$.probes[1].url", "not valid JSON", "duplicate key \"url\"", "line 1, column 138"),
        bad("duplicate top-level key", #"{"version":1,"quorum":1,"version":1,"probes":[]}"#, "$.version", "duplicate key"),
        // RFC 8259 has no trailing commas; the JSONDecoder this replaced accepted them.
        bad("trailing comma", doc([probe(), second + ","]), "$.probes", "not valid JSON", "a trailing comma before ']'"),
        bad("top level is an array", "[1, 2]", "$", "expected an object", "an array"),
        bad("missing version", #"{"probes":[\#(probe())],"quorum":1}"#, "$.version", "missing", "1"),
        bad("wrong version", doc(top: #""version":2,"quorum":1"#), "$.version", "expected 1", "found 2"),
        bad("version is a string", doc(top: #""version":"1","quorum":1"#), "$.version", "integer", "a string"),
        bad("missing probes", #"{"version":1,"quorum":1}"#, "$.probes", "missing", "non-empty array"),
        bad("probes is an object", #"{"version":1,"quorum":1,"probes":{}}"#, "$.probes", "array", "an object"),
        bad("empty probes", doc([]), "$.probes", "at least one probe", "empty array"),
        bad("probe is a string", doc([#""p""#]), "$.probes[0]", "expected an object", "a string"),
        bad("duplicate names", doc([probe(name: "x"), probe(name: "y", url: "http://b.example/"), probe(name: "x", url: "http://c.example/")]),
            "$.probes[2].name", "duplicate", "\"x\"", "$.probes[0]"),
        bad("unknown top-level key", doc(top: #""version":1,"quorum":1,"foo":true"#), "$.foo", "unknown key", "probes", "version"),
        bad("unknown probe key", doc([probe(extra: #","bar":1"#), second]), "$.probes[0].bar", "unknown key", "url"),
        bad("unknown expect key", doc([probe(expect: #"{"status":[204],"baz":1}"#), second]),
            "$.probes[0].expect.baz", "unknown key", "status", "success_header"),
        bad("unknown body key", doc([probe(expect: #"{"status":[204],"body":{"regex":"x"}}"#), second]),
            "$.probes[0].expect.body.regex", "unknown key", "exact", "prefix", "contains"),
        bad("unknown success_header key", doc([probe(expect: #"{"status":[204],"success_header":{"name":"X","value":"v","extra":1}}"#), second]),
            "$.probes[0].expect.success_header.extra", "unknown key", "name", "value"),
        bad("ftp URL", doc([probe(url: "ftp://a.example/x"), second]), "$.probes[0].url", "http:// or https://", "ftp://a.example/x"),
        bad("file URL", doc([probe(url: "file:///etc/passwd"), second]), "$.probes[0].url", "http:// or https://", "file:///etc/passwd"),
        bad("relative URL", doc([probe(url: "/generate_204"), second]), "$.probes[0].url", "absolute"),
        bad("host-less URL", doc([probe(url: "http://"), second]), "$.probes[0].url", "with a host"),
        bad("scheme-less URL", doc([probe(url: "a.example/x"), second]), "$.probes[0].url", "http:// or https://"),
        bad("space in URL", doc([probe(url: "http://a.example/a b"), second]), "$.probes[0].url", "http:// or https://"),
        bad("leading space in URL", doc([probe(url: " http://a.example/"), second]), "$.probes[0].url", "http:// or https://"),
        bad("tab in URL", doc([probe(url: #"http://a.example/\tx"#), second]), "$.probes[0].url", "http:// or https://"),
        bad("control character in URL", doc([probe(url: #"http://a.example/\u0007"#), second]), "$.probes[0].url", "http:// or https://"),
        bad("C1 control character in URL", doc([probe(url: #"http://a.example/\u009b2J"#), second]), "$.probes[0].url", "http:// or https://"),
        bad("NEL in URL", doc([probe(url: #"http://a.example/\u0085"#), second]), "$.probes[0].url", "http:// or https://"),
        bad("port out of range", doc([probe(url: "http://a.example:99999/"), second]), "$.probes[0].url", "http:// or https://"),
        bad("DEL in URL", doc([probe(url: #"http://a.example/\u007f"#), second]), "$.probes[0].url", "http:// or https://"),
        bad("URL is a number", doc([#"{"name":"p","url":42,"expect":{"status":[204]}}"#, second]), "$.probes[0].url", "a string", "a number"),
        bad("missing URL", doc([#"{"name":"p","expect":{"status":[204]}}"#, second]), "$.probes[0].url", "missing"),
        bad("missing name", doc([#"{"url":"http://a.example/","expect":{"status":[204]}}"#, second]), "$.probes[0].name", "missing"),
        bad("bad name", doc([probe(name: "a b"), second]), "$.probes[0].name", "A-Z", "\"a b\""),
        bad("missing expect", doc([#"{"name":"p","url":"http://a.example/"}"#, second]), "$.probes[0].expect", "missing", "status"),
        bad("status not an array", doc([probe(expect: #"{"status":204}"#), second]), "$.probes[0].expect.status", "array", "a number"),
        bad("status empty", doc([probe(expect: #"{"status":[]}"#), second]), "$.probes[0].expect.status", "non-empty", "empty array"),
        bad("status missing", doc([probe(expect: #"{"body":{"exact":""}}"#), second]), "$.probes[0].expect.status", "missing"),
        bad("status above 599", doc([probe(expect: #"{"status":[204,600]}"#), second]), "$.probes[0].expect.status[1]", "100-599", "600"),
        bad("status below 100", doc([probe(expect: #"{"status":[99]}"#), second]), "$.probes[0].expect.status[0]", "100-599", "99"),
        bad("status fraction", doc([probe(expect: #"{"status":[204.5]}"#), second]), "$.probes[0].expect.status[0]", "100-599", "204.5"),
        bad("status string", doc([probe(expect: #"{"status":["204"]}"#), second]), "$.probes[0].expect.status[0]", "a string"),
        bad("status boolean", doc([probe(expect: #"{"status":[true]}"#), second]), "$.probes[0].expect.status[0]", "a boolean"),
        bad("body with two rules", doc([probe(expect: #"{"status":[200],"body":{"exact":"a","prefix":"b"}}"#), second]),
            "$.probes[0].expect.body", "exactly one", "found 2"),
        bad("body with no rule", doc([probe(expect: #"{"status":[200],"body":{}}"#), second]),
            "$.probes[0].expect.body", "exactly one", "found 0"),
        bad("body rule not a string", doc([probe(expect: #"{"status":[200],"body":{"prefix":7}}"#), second]),
            "$.probes[0].expect.body.prefix", "a string", "a number"),
        bad("success_header without value", doc([probe(expect: #"{"status":[200],"success_header":{"name":"X"}}"#), second]),
            "$.probes[0].expect.success_header.value", "missing"),
        bad("success_header name with colon", doc([probe(expect: #"{"status":[200],"success_header":{"name":"X:","value":"v"}}"#), second]),
            "$.probes[0].expect.success_header.name", "header name"),
        bad("family ipv5", doc([probe(extra: #","family":"ipv5""#), second]), "$.probes[0].family", "\"ipv4\" or \"ipv6\"", "ipv5"),
        bad("family IPv4 upper case", doc([probe(extra: #","family":"IPv4""#), second]), "$.probes[0].family", "\"ipv4\" or \"ipv6\""),
        bad("interface with slash", doc([probe(extra: #","interface":"a/b""#), second]), "$.probes[0].interface", "interface name"),
        bad("empty operator", doc([probe(extra: #","operator":"""#), second]), "$.probes[0].operator", "non-empty"),
        bad("quorum above distinct operators", doc(top: #""version":1,"quorum":3"#), "$.quorum", "at most 2", "found 3"),
        bad("quorum counts operators, not probes",
            doc([probe(extra: #","operator":"acme""#), probe(name: "q", url: "http://b.example/", extra: #","operator":"acme""#)],
                top: #""version":1,"quorum":2"#),
            "$.quorum", "at most 1", "found 2"),
        bad("quorum 0", doc(top: #""version":1,"quorum":0"#), "$.quorum", "from 1", "found 0"),
        bad("quorum fraction", doc(top: #""version":1,"quorum":1.5"#), "$.quorum", "integer", "1.5"),
        bad("timeout 0", doc(top: #""version":1,"quorum":1,"timeout":0"#), "$.timeout", "from 0.1 to 3600", "found 0"),
        bad("timeout too long", doc(top: #""version":1,"quorum":1,"timeout":7200"#), "$.timeout", "3600", "found 7200"),
        bad("timeout a string", doc(top: ##""version":1,"quorum":1,"timeout":"10""##), "$.timeout", "a number", "a string"),
        bad("negative probe_timeout", doc(top: #""version":1,"quorum":1,"probe_timeout":-1"#), "$.probe_timeout", "from 0.1", "found -1"),
        bad("max_body_bytes too small", doc(top: #""version":1,"quorum":1,"max_body_bytes":100"#), "$.max_body_bytes", "256", "found 100"),
        bad("$schema not a string", doc(top: #""version":1,"quorum":1,"$schema":3"#), "$.$schema", "a string"),
    ]

    /// Each single mistake gives exactly one issue, naming the file, the path, and what was expected.
    @Test(arguments: cases)
    func reportsTheMistake(_ c: ConfigErrorCase) {
        let issues = configIssues(c.json, file: "/etc/netprobe/probes.json")
        #expect(issues.count == 1, "\(issues)")
        let issue = issues.first { $0.path == c.path }
        #expect(issue != nil, "no issue at \(c.path): \(issues)")
        guard let issue else { return }
        #expect(issue.file == "/etc/netprobe/probes.json")
        for fragment in c.says {
            #expect(issue.message.contains(fragment), "message \"\(issue.message)\" lacks \"\(fragment)\"")
        }
        let place = issue.position.map { " (line \($0.line), column \($0.column))" } ?? ""
        #expect(issue.description == TerminalText.escape("/etc/netprobe/probes.json: \(c.path): \(issue.message)", limit: 4096) + place)
        // Syntax errors say where in their message; every other issue carries the place of the value.
        #expect(issue.message.hasPrefix("not valid JSON") == (issue.position == nil), "\(issue)")
        // What is printed never carries a raw control character from the file.
        #expect(!issue.description.unicodeScalars.contains { $0.properties.generalCategory == .control })
    }

    @Test func theBaseDocumentIsValid() {
        #expect(configIssues(doc()) == [])
        #expect(configIssues(doc(top: #""version":1,"quorum":2"#)) == [])
    }

    @Test(arguments: ["http://a.example", "https://a.example/x?y=1#z", "HTTP://A.EXAMPLE/", "http://198.51.100.7:8080/",
                      "http://[2001:db8::1]/"])
    func acceptedURLs(_ url: String) {
        #expect(configIssues(doc([probe(url: url), second])) == [])
    }

    /// Every problem is reported in one run, not only the first.
    @Test func collectsAllProblems() {
        let json = doc([
            probe(name: "a", url: "ftp://a.example/"),
            probe(name: "b", url: "http://b.example/", expect: #"{"status":[700]}"#),
            probe(name: "c", url: "http://c.example/", extra: #","family":"ipx""#),
            probe(name: "a", url: "http://d.example/"),
        ], top: #""version":2,"quorum":1,"foo":1"#)
        let issues = configIssues(json, file: "many.json")
        let paths = Set(issues.map(\.path))
        let expected: Set = ["$.foo", "$.version", "$.probes[0].url", "$.probes[1].expect.status[0]", "$.probes[2].family"]
        #expect(expected.isSubset(of: paths), "\(issues)")
        #expect(issues.allSatisfy { $0.file == "many.json" })
        let error = ConfigError(issues: issues)
        #expect(error.description.split(separator: "\n").count == issues.count)
    }

    /// A probe rejected for its own mistake must not also shrink the operator count and
    /// trigger a second, false complaint about a quorum the file satisfies (nor may an
    /// invalid quorum be replaced by the default and judged again).
    @Test(arguments: [
        (doc([probe(url: "ftp://a.example/"), second], top: #""version":1,"quorum":2"#), "$.probes[0].url"),
        (doc([#"{"name":"p","expect":{"status":[204]}}"#, second], top: #""version":1,"quorum":2"#), "$.probes[0].url"),
        (doc([probe(expect: #"{"status":[]}"#), second], top: #""version":1,"quorum":2"#), "$.probes[0].expect.status"),
        (doc([probe()], top: #""version":1,"quorum":0"#), "$.quorum"),
    ])
    func oneMistakeIsOneIssue(_ json: String, _ path: String) {
        let issues = configIssues(json)
        #expect(issues.map(\.path) == [path], "\(issues)")
    }
}

@Test func duplicateNameIsReportedEvenWhenTheFirstProbeHasOtherMistakes() throws {
    let text = #"{"version":1,"quorum":1,"probes":[{"name":"a","url":"ftp://x","expect":{"status":[200]}},{"name":"a","url":"http://b.example/","expect":{"status":[200]}}]}"#
    do {
        _ = try ConfigParser.parse(Data(text.utf8), file: "p.json")
        Issue.record("a duplicate name was accepted")
    } catch {
        #expect(error.issues.map(\.path) == ["$.probes[0].url", "$.probes[1].name"])
        #expect(error.issues[1].message.contains("duplicate name \"a\""))
    }
}

@Test func syntaxErrorsSayLineAndColumn() throws {
    let text = "{\n  \"version\": 1,\n  \"probes\": [ x ]\n}"
    do {
        _ = try ConfigParser.parse(Data(text.utf8), file: "p.json")
        Issue.record("invalid JSON was accepted")
    } catch {
        #expect(error.issues.count == 1)
        #expect(error.issues[0].message.contains("line 3, column 15"), "\(error.issues[0].message)")
    }
}

@Test func aMissingQuorumIsNotReportedAsIfTheUserWroteIt() throws {
    let text = #"{"version":1,"probes":[{"name":"a","url":"http://a.example/","expect":{"status":[200]}}]}"#
    do {
        _ = try ConfigParser.parse(Data(text.utf8), file: "p.json")
        Issue.record("quorum 2 with one operator was accepted")
    } catch {
        #expect(error.issues.map(\.path) == ["$.quorum"])
        #expect(error.issues[0].message.contains("missing, so the default 2 applies"))
    }
}

@Test func oversizedAndDirectoryFilesAreRefusedWithoutReadingThemWhole() throws {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("np-config-\(getpid())")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let big = directory.appendingPathComponent("big.json")
    try Data(repeating: 0x20, count: ConfigParser.maximumFileBytes + 10).write(to: big)
    #expect(throws: ConfigError.self) { try ConfigParser.load(path: big.path) }
    do {
        _ = try ConfigParser.load(path: big.path)
    } catch {
        #expect(error.issues[0].message.contains("at most \(ConfigParser.maximumFileBytes) bytes"))
    }
    do {
        _ = try ConfigParser.load(path: directory.path)
    } catch {
        #expect(error.issues[0].message == "expected a file, found a directory")
    }
    // A device would feed us without end: refused before a byte is read.
    do {
        _ = try ConfigParser.load(path: "/dev/zero")
        Issue.record("/dev/zero was accepted")
    } catch {
        #expect(error.issues[0].message == "expected a regular file, found a device, pipe or socket")
    }
}

@Test func aUTF16FileIsRefusedAsNotUTF8() throws {
    let bytes: [UInt8] = [0xFF, 0xFE] + Array(#"{"version":1}"#.utf8).flatMap { [$0, 0] }
    do {
        _ = try ConfigParser.parse(bytes: bytes, file: "p.json")
        Issue.record("a UTF-16 file was accepted")
    } catch {
        #expect(error.issues.map(\.message) == ["not valid JSON: the text is UTF-16 or UTF-32 (it starts with a byte order mark); JSON must be UTF-8 (line 1, column 1)"])
    }
}

/// 300,000 bad probes: the first issues and a count, not 64 MB of messages.
@Test func thousandsOfMistakesAreCappedWithACount() throws {
    let count = 300_000
    let text = #"{"version":1,"quorum":1,"probes":["# + Array(repeating: "{}", count: count).joined(separator: ",") + "]}"
    #expect(text.utf8.count <= ConfigParser.maximumFileBytes)
    do {
        _ = try ConfigParser.parse(bytes: Array(text.utf8), file: "p.json")
        Issue.record("300,000 empty probes were accepted")
    } catch {
        // "at most 64 probes", then name, url and expect missing in each probe.
        let total = 1 + 3 * count
        #expect(error.issues.count == ConfigParser.maximumIssues)
        #expect(error.omitted == total - ConfigParser.maximumIssues)
        #expect(error.issues.first?.message == "expected at most 64 probes, found \(count)")
        let lines = error.description.split(separator: "\n")
        #expect(lines.count == ConfigParser.maximumIssues + 1)
        #expect(lines.last == "... and \(total - ConfigParser.maximumIssues) more")
    }
}

/// Each issue names the line and column of the value it is about, or of the object missing a key.
@Test func issuesSayWhereTheValueIs() throws {
    let text = """
        {
          "version": 1, "quorum": 1,
          "probes": [
            {"name": "a", "url": "ftp://a.example/", "expect": {"status": [204, 700]}},
            {"name": "b", "expect": {"status": [204]}}
          ]
        }
        """
    do {
        _ = try ConfigParser.parse(bytes: Array(text.utf8), file: "p.json")
        Issue.record("accepted")
    } catch {
        let places = error.issues.map { "\($0.path) \($0.position?.description ?? "-")" }
        #expect(places == ["$.probes[0].url line 4, column 26", "$.probes[0].expect.status[1] line 4, column 73",
                           "$.probes[1].url line 5, column 5"])
        #expect(error.issues[0].description == #"p.json: $.probes[0].url: expected an absolute http:// or https:// URL with a host, found "ftp://a.example/" (line 4, column 26)"#)
    }
}

/// A path of 5,000 bytes stays whole in its own error message.
@Test func aLongFileNameIsNotCut() {
    let file = "/" + String(repeating: "d/", count: 2_500) + "p.json"
    let issue = ConfigIssue(file: file, path: "$", message: "the file does not exist")
    #expect(issue.description == "\(file): $: the file does not exist")
}
