import Foundation
import NetprobeWire
import NetprobeVerdict
import Testing

/// The memory's file read as hostile input: whatever the bytes, a memory (perhaps empty) of
/// entries that were whole and right in them, and a word on what was not taken.
@Suite struct NetworkMemoryFileTests {
    typealias File = NetworkMemoryFile
    static let start = MemoryFixtures.start

    static let rich = NetworkMemory.Entry(
        id: "0123456789ab", name: "Café \"Home\" \\ 🏠", lastSeen: start.addingTimeInterval(100.1234),
        lastProven: start.addingTimeInterval(90), verdict: .portal, reason: .httpRedirect, openStreak: 0,
        portalURL: "http://portal.example/login?room=1&x=%22", portalAPI: "https://api.example/capport",
        informAnswers: true, informPortalAPI: "https://api.example/capport", intercepted: ["apple", "google"])
    static let plain = NetworkMemory.Entry(id: "fedcba987654", lastSeen: start, openStreak: 7)
    static let memory = NetworkMemory([rich, plain])

    /// A valid file's text: `plain`'s entry, then one entry whose members are `members` over the rich one's.
    static func file(_ members: [String: String] = [:], version: String = "1") -> [UInt8] {
        var entry = [
            "id": "\"0123456789ab\"", "name": "\"home\"", "last_seen": "\"2026-09-21T10:00:00.000Z\"",
            "last_proven": "\"2026-09-21T09:59:00Z\"", "verdict": "\"online\"", "reason": "\"probes-validated\"",
            "open_streak": "3", "portal_url": "null", "portal_api": "\"https://api.example/capport\"",
            "inform_answers": "false", "inform_portal_api": "null", "intercepted": "[]",
        ]
        for (key, value) in members { entry[key] = value }
        let object = "{" + entry.sorted { $0.key < $1.key }.compactMap { $0.value.isEmpty ? nil : "\"\($0.key)\":\($0.value)" }
            .joined(separator: ",") + "}"
        let other = #"{"id":"fedcba987654","last_seen":"2026-09-20T08:00:00Z","open_streak":0,"intercepted":[]}"#
        return Array(#"{"version":\#(version),"networks":[\#(other),\#(object)]}"#.utf8)
    }

    @Test func writesWhatItReadsBackByteForByte() throws {
        let bytes = File.encode(Self.memory)
        let loaded = File.decode(bytes)
        #expect(loaded.problem == nil)
        #expect(loaded.memory.entries.map(\.id) == ["fedcba987654", "0123456789ab"], "oldest last_seen first")
        let read = try #require(loaded.memory["0123456789ab"])
        var expected = Self.rich
        // Times are kept to the millisecond.
        #expect(abs(read.lastSeen.timeIntervalSince(expected.lastSeen)) < 0.001)
        #expect(abs(try #require(read.lastProven).timeIntervalSince(try #require(expected.lastProven))) < 0.001)
        expected.lastSeen = read.lastSeen
        expected.lastProven = read.lastProven
        #expect(read == expected)
        #expect(File.encode(loaded.memory) == bytes, "read and written again, the same bytes")
        #expect(File.decode(File.encode(loaded.memory)).memory == loaded.memory)
        let text = String(decoding: bytes, as: UTF8.self)
        #expect(text.hasPrefix(#"{"networks":[{"id":"fedcba987654","inform_answers":null,"#), "keys sorted: \(text)")
        #expect(text.hasSuffix("],\"version\":1}\n"))
        #expect(text.contains(#""name":"Café \"Home\" \\ 🏠""#), "escaped by the JSON writer: \(text)")
        #expect(text.contains(#""last_seen":"2026-09-21T14:15:00.123Z""#), "\(text)")
    }

    /// Every millisecond written comes back as itself, read and written again: `ms / 1000` as a
    /// Date can fall a hair short of its millisecond, which the writer would round down.
    @Test func everyMillisecondSurvivesReadingAndWriting() {
        var stamps: [String] = []
        // Years where it happens to a quarter of all milliseconds (2004) and where it never does (2026).
        for base: Int64 in [1_078_388_000_000, 1_790_000_000_000, 0, 253_402_300_000_000] {
            var ms = base
            for step in 0..<500 {
                let stamp = Timestamp.iso8601(Date(timeIntervalSince1970: Double(ms / 1000)), fractional: false).dropLast()
                    + "." + String(repeating: "0", count: 3 - String(ms % 1000).count) + String(ms % 1000) + "Z"
                stamps.append(String(stamp))
                ms += Int64(1 + step * 7919 % 997)
            }
        }
        for stamp in stamps {
            let text = #"{"networks":[{"id":"0123456789ab","intercepted":[],"last_seen":"\#(stamp)","open_streak":0}],"version":1}"#
            let written = String(decoding: File.encode(File.decode(Array(text.utf8)).memory), as: UTF8.self)
            #expect(written.contains(#""last_seen":"\#(stamp)""#), "\(stamp) came back as \(written)")
        }
    }

    @Test func anEmptyMemoryIsAFileToo() {
        #expect(String(decoding: File.encode(NetworkMemory()), as: UTF8.self) == "{\"networks\":[],\"version\":1}\n")
        #expect(File.decode(File.encode(NetworkMemory())) == File.Loaded())
    }

    /// Cut anywhere, the file is no longer JSON and nothing of it is taken; no cut traps, and no
    /// entry comes back that was not whole in the text.
    @Test func truncatedAtEveryByte() {
        let bytes = File.encode(Self.memory)
        let whole = File.decode(bytes).memory
        for cut in 0..<bytes.count {
            let loaded = File.decode(Array(bytes[..<cut]))
            #expect(loaded.memory.entries.allSatisfy { whole.entries.contains($0) })
            // Only the final newline can go without the rest becoming something else.
            if cut < bytes.count - 1 {
                #expect(loaded.memory.entries.isEmpty, "cut at \(cut)")
                #expect(loaded.problem?.hasSuffix(": ignored") == true, "cut at \(cut): \(loaded.problem ?? "no problem")")
            }
        }
    }

    @Test func aFileLargerThanTheCapIsIgnoredWhole() {
        var bytes = File.encode(Self.memory)
        bytes.insert(contentsOf: [UInt8](repeating: 0x20, count: File.maxBytes - bytes.count), at: bytes.count - 1)
        #expect(File.decode(bytes).memory == File.decode(File.encode(Self.memory)).memory, "exactly the cap is read")
        bytes.insert(0x20, at: 0)
        #expect(File.decode(bytes) == File.Loaded(problem: "larger than 65536 bytes: ignored"))
    }

    @Test(arguments: [
        ([], "not valid JSON"), (Array("null".utf8), "not a JSON object"), (Array("[]".utf8), "not a JSON object"),
        (Array("\"networks\"".utf8), "not a JSON object"), (Array("{".utf8), "not valid JSON"),
        ([0xFF, 0xFE, 0x7B, 0x7D], "not valid JSON"), (Array("{}".utf8), "no version"),
        (Array(#"{"version":1}"#.utf8), "no networks"),
        (Array(#"{"version":1,"networks":{}}"#.utf8), "networks is an object, not an array"),
        (Array(#"{"version":1,"networks":[],"version":1}"#.utf8), "not valid JSON"),
        (Array(#"{"version":1,"networks":[],"\#(String(repeating: "k", count: 30_000))":1,"\#(String(repeating: "k", count: 30_000))":1}"#.utf8), "not valid JSON"),
        (Array(String(repeating: "[", count: 10_000).utf8), "not valid JSON"),
        (Array("{\"version\":1,\"networks\":[]}\u{0}".utf8), "not valid JSON"),
        (file(version: "2"), "version 2, not 1"), (file(version: "0.5"), "version 0.5, not 1"),
        (file(version: "\"1\""), "version \"1\", not 1"), (file(version: "null"), "version null, not 1"),
        (file(version: "1e300"), "version 1e+300, not 1"),
    ] as [([UInt8], String)])
    func notTheFileAtAllIsIgnoredWhole(bytes: [UInt8], problem: String) throws {
        let loaded = File.decode(bytes)
        #expect(loaded.memory.entries.isEmpty)
        let said = try #require(loaded.problem)
        #expect(said.hasPrefix(problem) && said.hasSuffix(": ignored"), "\(said)")
        #expect(said.count < 240, "a few words, whatever the file held: \(said.count) characters")
    }

    @Test func aValidFileIsTakenWhole() {
        let loaded = File.decode(Self.file())
        #expect(loaded.problem == nil)
        #expect(loaded.memory.entries.count == 2)
        let entry = loaded.memory["0123456789ab"]
        #expect(entry?.verdict == .online && entry?.reason == .probesValidated && entry?.openStreak == 3)
        #expect(entry?.informAnswers == false && entry?.portalAPI == "https://api.example/capport" && entry?.name == "home")
        // Optional members may be absent, as null; unknown ones are not read.
        let sparse = File.decode(Self.file(["name": "", "last_proven": "", "verdict": "", "reason": "", "portal_api": "",
                                            "inform_answers": "", "future": "{\"x\":[1]}"]))
        #expect(sparse.problem == nil)
        #expect(sparse.memory["0123456789ab"] == NetworkMemory.Entry(id: "0123456789ab", lastSeen: sparse.memory["0123456789ab"]!.lastSeen,
                                                                     openStreak: 3))
    }

    static let long = "http://portal.example/" + String(repeating: "a", count: File.maxStringBytes - 22)

    /// Each row spoils one member of the second entry: it alone is skipped, and said.
    @Test(arguments: [
        ["id": "\"0123456789AB\""], ["id": "\"0123456789a\""], ["id": "\"0123456789abc\""], ["id": "\"0123456789ag\""],
        ["id": "12"], ["id": ""], ["id": "\"０123456789ab\""],
        ["name": "\"\\u001b[2Jhome\""], ["name": "\"a\\u0085b\""], ["name": "\"a\\u007fb\""], ["name": "7"],
        ["name": "\"" + String(repeating: "é", count: 1025) + "\""],
        ["portal_url": "\"javascript:alert(1)\""], ["portal_url": "\"ftp://portal.example/\""],
        ["portal_url": "\"http://portal.example/a b\""], ["portal_url": "\"http://portal.example/\\u202e\""],
        ["portal_url": "\"" + long + "a\""], ["portal_api": "\"/relative\""], ["inform_portal_api": "\"\""], ["portal_url": "[]"],
        ["verdict": "\"maybe\""], ["verdict": "\"Online\""], ["reason": "\"nope\""], ["reason": "1"],
        ["last_seen": ""], ["last_seen": "null"], ["last_seen": "\"yesterday\""], ["last_seen": "\"2026-02-30T00:00:00Z\""],
        ["last_seen": "\" 2026-09-21T10:00:00Z\""], ["last_seen": "1790000000"], ["last_proven": "\"2026-09-21 10:00:00Z\""],
        ["open_streak": "-1"], ["open_streak": "1.5"], ["open_streak": "1e12"], ["open_streak": "\"3\""], ["open_streak": ""],
        ["intercepted": "[" + Array(repeating: "\"x\"", count: 17).joined(separator: ",") + "]"],
        ["intercepted": "[1]"], ["intercepted": "[\"\"]"], ["intercepted": "[\"a\\u0000\"]"], ["intercepted": "\"apple\""],
        ["intercepted": ""], ["inform_answers": "\"yes\""], ["inform_answers": "0"],
    ])
    func eachBadEntryIsSkippedAlone(members: [String: String]) {
        let loaded = File.decode(Self.file(members))
        #expect(loaded.memory.entries.map(\.id) == ["fedcba987654"], "\(members)")
        #expect(loaded.problem == "1 network not valid: skipped")
    }

    @Test func theLongestStringsAllowedAreTaken() {
        let name = "\"" + String(repeating: "é", count: 1024) + "\""
        let loaded = File.decode(Self.file(["portal_url": "\"\(Self.long)\"", "name": name,
                                            "intercepted": "[" + Array(repeating: "\"x\"", count: 16).joined(separator: ",") + "]"]))
        #expect(loaded.problem == nil)
        #expect(loaded.memory["0123456789ab"]?.portalURL == Self.long)
    }

    @Test func aRepeatedNetworkKeepsItsNewestEntry() {
        let first = #"{"id":"0123456789ab","name":"old","last_seen":"2026-09-21T10:00:00Z","open_streak":0,"intercepted":[]}"#
        let second = #"{"id":"0123456789ab","name":"new","last_seen":"2026-09-21T11:00:00Z","open_streak":0,"intercepted":[]}"#
        let loaded = File.decode(Array(#"{"version":1,"networks":[\#(second),\#(first)]}"#.utf8))
        #expect(loaded.memory.entries.map(\.name) == ["new"])
        #expect(loaded.problem == "1 repeated network: the newest kept")
    }

    @Test func moreNetworksThanTheCapKeepTheNewest() {
        // Written newest first: the order in the file does not matter, the times do.
        let entries = (0..<100).reversed().map { index in
            #"{"id":"\#(String(format: "%012x", index))","last_seen":"2026-09-21T10:\#(String(format: "%02d", index / 60)):"#
                + #"\#(String(format: "%02d", index % 60))Z","open_streak":0,"intercepted":[]}"#
        }
        let loaded = File.decode(Array(#"{"version":1,"networks":[\#(entries.joined(separator: ","))]}"#.utf8))
        #expect(loaded.memory.entries.map(\.id) == (36..<100).map { String(format: "%012x", $0) })
        #expect(loaded.problem == "more than 64 networks: the 36 seen least recently forgotten")
    }

    /// 200 networks, each with three 2 KB URLs: far more than the cap. The file stays within
    /// it and keeps the networks seen most recently, the newest last.
    @Test func encodeFitsTheCapByForgettingTheOldest() {
        let url = Self.long
        let entries = (0..<200).map { index in
            NetworkMemory.Entry(id: String(format: "%012x", index), name: String(repeating: "\"", count: 2048),
                                lastSeen: Self.start.addingTimeInterval(Double(index)), portalURL: url, portalAPI: url,
                                informPortalAPI: url, intercepted: Array(repeating: "operator", count: 16))
        }
        let memory = NetworkMemory(entries)
        let bytes = File.encode(memory)
        #expect(bytes.count <= File.maxBytes)
        let loaded = File.decode(bytes)
        let count = loaded.memory.entries.count
        #expect(File.maxBytes - bytes.count < bytes.count / max(count, 1), "no more was dropped than had to be: \(bytes.count) bytes")
        #expect(loaded.problem == nil)
        #expect(!loaded.memory.entries.isEmpty)
        #expect(loaded.memory.entries.map(\.id) == memory.entries.suffix(loaded.memory.entries.count).map(\.id))
        #expect(loaded.memory.entries.last?.portalURL == url)
    }

    /// What the reader would refuse is not written: a name or URL as null, an operator left
    /// out, a network whose time cannot be written left out.
    @Test func encodeWritesOnlyWhatDecodeTakes() throws {
        var bad = Self.rich
        bad.name = "home\u{1B}[2J"
        bad.portalURL = "javascript:alert(1)"
        bad.intercepted = ["apple", "", "go\u{7}ogle"] + Array(repeating: "x", count: 20)
        bad.openStreak = -4
        let farOff = NetworkMemory.Entry(id: "222222222222", lastSeen: Date(timeIntervalSince1970: 1e13),
                                         lastProven: Date(timeIntervalSinceReferenceDate: -1e15))
        let wrongID = NetworkMemory.Entry(id: "not an id", lastSeen: Self.start)
        let loaded = File.decode(File.encode(NetworkMemory([farOff, wrongID, bad])))
        #expect(loaded.problem == nil)
        #expect(loaded.memory.entries.map(\.id) == ["0123456789ab"])
        let entry = try #require(loaded.memory["0123456789ab"])
        #expect(entry.name == nil && entry.portalURL == nil && entry.portalAPI == Self.rich.portalAPI)
        #expect(entry.intercepted == ["apple"] + Array(repeating: "x", count: 15))
        #expect(entry.openStreak == 0)
    }

    @Test func theFileIsValidAgainstItsSchema() throws {
        let bad = NetworkMemory.Entry(id: "abcdefabcdef", name: "a\u{0}", lastSeen: Self.start, verdict: .offline, reason: .timeout,
                                      openStreak: Int.max, portalURL: "ftp://x/")
        let documents = [NetworkMemory(), Self.memory, NetworkMemory([bad]), File.decode(Self.file()).memory]
        try JSONOutputTests.validate(documents.map { String(decoding: File.encode($0), as: UTF8.self) },
                                     against: "network-memory.schema.json")
    }

    /// The schema names every reason and verdict the reader takes, and no other.
    @Test func theSchemaKnowsEveryReason() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../..").standardized
        let bytes = try [UInt8](Data(contentsOf: root.appendingPathComponent("schemas/network-memory.schema.json")))
        let schema = try JSONReader.parse(bytes, limits: .init(maxBytes: 1 << 20))
        func member(_ value: JSONValue?, _ path: [String]) -> JSONValue? {
            guard let value, let key = path.first else { return value }
            guard case .object(let members) = value.content else { return nil }
            return member(members[JSONKey(key)], Array(path.dropFirst()))
        }
        func names(_ key: String) -> [String?] {
            guard case .array(let items)? = member(schema, ["$defs", "network", "properties", key, "enum"])?.content else { return [] }
            return items.map { if case .string(let text) = $0.content { text } else { nil } }
        }
        #expect(names("reason") == Reason.allCases.map(\.rawValue) + [nil])
        #expect(names("verdict") == ["online", "portal", "offline", nil])
    }
}
