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

/// What the written JSON documents mean: every report and path shape, with hostile strings in
/// every field and every duration form, is valid against the schema the project ships for it,
/// sorted and strict as JSONEncoder with sorted keys and unescaped slashes wrote it, the same
/// in compact and pretty form, and carries the values its fixture fixed; numbers and strings
/// are compared with JSONEncoder itself on plain values.
@Suite struct JSONOutputTests {
    /// Quotes, backslashes, slashes, every C0 control, DEL and C1, non-ASCII, emoji, bidi,
    /// line/paragraph separators: what an interface name, a DNS server line or a portal can carry.
    static let hostile = "a\"b\\c/d" + (0..<0x20).map { String(UnicodeScalar(UInt8($0))) }.joined()
        + "\u{7F}\u{80}\u{9F} é ü 日本 😀👩‍👩‍👧 \u{202E}rtl \u{2028}\u{2029} \u{FFFD} </script>"

    static let hostilePath = PathSnapshot(
        interfaces: [
            NetworkInterface(name: hostile, index: 7, type: .wifi, kind: hostile, up: false, carrier: false, operstate: hostile,
                             mtu: 0, hardwareAddress: hostile, expensive: true,
                             addresses: [InterfaceAddress(family: .ipv6, address: hostile, prefixLength: 128, scope: .link),
                                         InterfaceAddress(family: .ipv4, address: "10.0.0.1", prefixLength: 0, scope: .host,
                                                          validLifetime: 4_294_967_294)]),
            NetworkInterface(name: "wwan0", index: -1, type: .cellular, up: true, carrier: true, operstate: "dormant", mtu: Int.max),
            NetworkInterface(name: "tun0", index: Int.min, type: .tunnel, up: true, carrier: true, operstate: "up", mtu: 1280),
        ],
        defaultRoutes: [
            DefaultRoute(family: .ipv6, gateway: nil, interface: nil, interfaceIndex: nil, metric: 0, table: 0),
            DefaultRoute(family: .ipv4, gateway: hostile, interface: hostile, interfaceIndex: 7, metric: 4_294_967_295, table: 254),
        ],
        kernelRoutes: [
            RouteAnswer(family: .ipv4, destination: "8.8.8.8", interface: hostile, interfaceIndex: 7, gateway: hostile,
                        source: hostile, table: 51820),
            RouteAnswer(family: .ipv6, destination: hostile, refusal: .blackhole),
        ],
        nat64: NAT64Prefix(prefix: "64:ff9b::/96", resolver: hostile),
        dns: DNSConfiguration(servers: [hostile, "::1"], searchDomains: [hostile, "lab.test"], localStub: true, source: hostile))

    static let emptyPath = PathSnapshot(interfaces: [], defaultRoutes: [], dns: DNSConfiguration(servers: [], localStub: false, source: ""))

    /// Milliseconds as the checks produce them (rounded to 0.1) and the forms JSONEncoder
    /// spells specially: integral (1500, not 1500.0), negative zero, exponents, long fractions.
    static let durations: [Double] = [0, -0.0, 0.04, 0.05, 0.1, 0.3, 12.5, 123.456, 1500, 99_999.95, 1e-7, 2.5e-5,
                                      1e15, 1e16, 1e21, 123_456_789.123, 0.1 + 0.2, -3.25, 1e300]

    static func observation(_ spec: ProbeSpec, ms: Double, text: String) -> ProbeObservation {
        ProbeObservation(name: spec.name, url: spec.url, status: 407,
                         headers: [("location", text), ("content-type", text), ("content-length", "12"), ("via", text)],
                         body: Array(text.utf8), bodyTruncated: true,
                         transportError: TransportError(kind: .proto, code: 56, message: text),
                         timings: ProbeTimings(dnsMs: ms, connectMs: nil, tlsMs: ms / 3, firstByteMs: ms * 7, totalMs: ms),
                         remoteAddress: text, proxy: "http://" + text, proxyAddress: text, proxyConnectStatus: 407, proxyAuthRealm: text)
    }

    /// A report with every optional part present: two paths, WISPr, capport, canary, proxy, partial,
    /// the DHCPINFORM.
    static func rich(ms: Double, text: String = hostile, capport: CapportReport.State = .answered) -> Report {
        let spec = ProbeSpec(name: text, url: "https://" + text, operatorName: text, expect: Expectation(statuses: [204]))
        let cancelled = ProbeObservation(name: "c", url: "http://c.test/", transportError: TransportError(kind: .cancelled, code: 42, message: text),
                                         timings: ProbeTimings(totalMs: ms))
        let evidence = [
            ProbeEvidence(spec: spec, outcome: .failure, errorClass: .proxyAuthRequired, bodyMatched: false, observation: observation(spec, ms: ms, text: text)),
            ProbeEvidence(spec: Fixtures.spec("google"), outcome: .failure, errorClass: .timeout, observation: cancelled),
            Classifier.classify(Fixtures.expectedAnswer("gnome"), for: Fixtures.spec("gnome")),
            .skipped(Fixtures.spec("apple"), because: .gate),
            .skipped(Fixtures.spec("firefox"), because: .filtered),
        ]
        let wispr = WISPrInfo(messageType: 100, responseCode: 0, loginURL: text, abortLoginURL: text, locationName: text,
                              accessLocation: text, accessProcedure: "1.0")
        let portal = PortalInfo(url: text, source: "wispr", probe: text, status: 200, loginURL: text, locationName: text, wispr: wispr)
        let conclusion = Conclusion(verdict: .online, reason: .probesValidated, portal: portal, partial: true, partialError: text,
                                    successOperators: 3, portalOperators: 0, quorum: 2, dnsHijack: true, proxy: true)
        let answer = CapportAnswer(captive: true, userPortalURL: text, venueInfoURL: text, secondsRemaining: 3600,
                                   bytesRemaining: 1 << 40, canExtendSession: false)
        let report = CapportReport(uri: text, source: text, interface: text, state: capport, error: text, status: 200,
                                   answer: capport == .answered ? answer : nil, durationMs: ms)
        let canary = DNSCanaryReport(name: text, resolved: true, address: text)
        var first = PathReport(interface: text, family: .ipv6, isDefault: true, conclusion: conclusion, families: [.ipv6, .ipv4],
                               probes: evidence, durationMs: ms, capport: report, canary: canary,
                               inform: DHCPInformReport(interface: text, clientAddress: "198.51.100.2", state: .answered, error: text,
                                                        server: "198.51.100.1", captivePortal: text, nameServers: ["198.51.100.1"],
                                                        durationMs: ms))
        first.network = NetworkIdentity(gatewayMAC: "02:00:00:00:00:01", dhcpServer: "198.51.100.1", domain: "lab.example", ssid: text)
        let second = PathReport(interface: nil, family: nil, isDefault: false,
                                conclusion: Conclusion(verdict: .offline, reason: .noDefaultRoute, partial: false, quorum: 1),
                                families: [], probes: [], durationMs: ms * 2,
                                fault: FaultFinding(.gateway, detail: text, summary: text))
        return Report(paths: [second, first], overall: 1, durationMs: ms, timestamp: Date(timeIntervalSince1970: -1.5), path: hostilePath)
    }

    static var reports: [Report] {
        var reports = [
            ReportFixtures.report(),
            ReportFixtures.report(portal: nil, verdict: .offline, reason: .timeout),
            ReportFixtures.report(portal: PortalInfo(url: nil, source: "body", probe: "apple", status: 200, wispr: WISPrInfo()),
                                  reason: .wrongContent),
            rich(ms: 42, capport: .unrestricted),
            rich(ms: 42, text: "", capport: .failed),
            rich(ms: 7, text: "plain/ascii-only"),
        ]
        reports += durations.map { rich(ms: $0) }
        return reports
    }

    /// Each document, compact and pretty, validated by a real JSON Schema validator
    /// (scripts/validate-json, python3-jsonschema) against the schema the project ships for it:
    /// every key, type, enum and required member the schema describes.
    static func validate(_ documents: [String], against schema: String) throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../..").standardized
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("netprobe-json-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        var files: [String] = []
        for (index, document) in documents.enumerated() {
            let file = directory.appendingPathComponent("\(index).json")
            try Data(document.utf8).write(to: file)
            files.append(file.path)
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        process.arguments = [root.appendingPathComponent("scripts/validate-json").path,
                             root.appendingPathComponent("schemas/\(schema)").path] + files
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        try process.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0, "\(schema): \(text)")
    }

    /// The keys of every object in `value`, in the order the text wrote them (the members'
    /// offsets), each object's list on its own.
    static func keyOrders(_ value: JSONValue) -> [[String]] {
        switch value.content {
        case .array(let items): return items.flatMap(keyOrders)
        case .object(let members):
            let written = members.sorted { $0.value.position.offset < $1.value.position.offset }
            return [written.map(\.key.text)] + written.flatMap { keyOrders($0.value) }
        default: return []
        }
    }

    static func parsed(_ text: String) throws -> JSONValue {
        try JSONReader.parse(Array(text.utf8), limits: .init(maxBytes: 1 << 22, maxDepth: 64))
    }

    static func foundation(_ text: String) throws -> NSObject {
        try #require(try JSONSerialization.jsonObject(with: Data(text.utf8), options: [.fragmentsAllowed]) as? NSObject)
    }

    /// A report of every optional part with values a check could really give (the hostile
    /// fixtures carry strings and numbers no schema allows, on purpose: they test the writer).
    static func realistic(ms: Double, capport: CapportReport.State = .answered) -> Report {
        var report = rich(ms: ms, text: "http://login.example/portal?room=1", capport: capport)
        report.path = ReportFixtures.path
        let canary = DNSCanaryReport(name: "netprobe-canary.invalid", resolved: true, address: "10.66.0.1")
        let answer = CapportAnswer(captive: true, userPortalURL: "https://login.example/portal", venueInfoURL: nil,
                                   secondsRemaining: 3600, bytesRemaining: 1 << 40, canExtendSession: false)
        for index in report.paths.indices {
            report.paths[index].interface = report.paths[index].interface.map { _ in "eth0" }
            report.paths[index].canary = report.paths[index].canary.map { _ in canary }
            report.paths[index].capport = report.paths[index].capport.map { _ in
                CapportReport(uri: "https://capport.example/api", source: "dhcpinform", interface: "eth0", state: capport,
                              error: nil, status: 200, answer: capport == .answered ? answer : nil, durationMs: ms)
            }
            report.paths[index].inform = report.paths[index].inform.map { _ in
                DHCPInformReport(interface: "eth0", clientAddress: "198.51.100.2", state: .answered, server: "198.51.100.1",
                                 captivePortal: "https://capport.example/api", nameServers: ["198.51.100.1"], durationMs: ms)
            }
        }
        report.paths[report.overall].probes = ReportFixtures.evidence()
        return report
    }

    @Test func reportsAreValidAgainstTheReportSchema() throws {
        let reports = Self.reports.prefix(3) + [Self.realistic(ms: 42), Self.realistic(ms: 7, capport: .unrestricted)]
            + Self.durations.filter { $0 >= 0 }.map { Self.realistic(ms: $0) }
        try Self.validate(reports.flatMap { [JSONFormatter.format($0), JSONFormatter.format($0, pretty: true)] },
                          against: "report.schema.json")
    }

    @Test func pathsAreValidAgainstThePathSchema() throws {
        let paths = [ReportFixtures.path, Self.emptyPath]
        try Self.validate(paths.flatMap { [JSONFormatter.format($0), JSONFormatter.format($0, pretty: true)] },
                          against: "path.schema.json")
    }

    /// As JSONEncoder with `.sortedKeys` and `.withoutEscapingSlashes` wrote them: keys in the
    /// order of their UTF-8 bytes in every object, no key twice (the strict reader refuses that),
    /// slashes as they are; the pretty form says exactly what the compact one says.
    @Test func everyDocumentIsSortedStrictAndTheSameInBothForms() throws {
        let documents = Self.reports.map { (JSONFormatter.format($0), JSONFormatter.format($0, pretty: true)) }
            + [ReportFixtures.path, Self.hostilePath, Self.emptyPath].map { (JSONFormatter.format($0), JSONFormatter.format($0, pretty: true)) }
        for (compact, pretty) in documents {
            let value = try Self.parsed(compact)
            for keys in Self.keyOrders(value) {
                #expect(keys == keys.sorted { Array($0.utf8).lexicographicallyPrecedes(Array($1.utf8)) }, "\(keys)")
            }
            #expect(!compact.contains("\\/") && !compact.contains("\n"), "compact output is one line with slashes unescaped")
            #expect(pretty.contains("\n  \""), "the pretty form is indented")
            #expect(try Self.foundation(compact).isEqual(try Self.foundation(pretty)))
        }
    }

    /// The values the rich fixture fixes, where a reader of the document finds them.
    @Test func theRichReportSaysWhatItsFixtureHolds() throws {
        let text = JSONFormatter.format(Self.rich(ms: 42, text: "plain/ascii-only"))
        let document = try #require(try Self.foundation(text) as? [String: Any])
        #expect(document["schema_version"] as? Int == 1)
        #expect(document["verdict"] as? String == "online" && document["reason"] as? String == "probes-validated")
        #expect(document["duration_ms"] as? Double == 42 && document["timestamp"] as? String == "1969-12-31T23:59:58.500Z")
        let portal = try #require(document["portal"] as? [String: Any])
        #expect(portal["url"] as? String == "plain/ascii-only" && portal["source"] as? String == "wispr")
        #expect((portal["wispr"] as? [String: Any])?["message_type"] as? Int == 100)
        let paths = try #require(document["paths"] as? [[String: Any]])
        #expect(paths.count == 2)
        #expect(paths.map { $0["verdict"] as? String } == ["offline", "online"])
        #expect(paths[0]["fault"] as? String == "gateway" && paths[0]["interface"] is NSNull)
        #expect(paths[1]["default"] as? Bool == true && paths[1]["family"] as? String == "ipv6")
        let probes = try #require(document["probes"] as? [[String: Any]])
        #expect(probes.map { $0["outcome"] as? String } == ["failure", "failure", "success", "skipped", "skipped"])
        #expect(probes[0]["proxy"] as? String == "http://plain/ascii-only")
        let inform = try #require(document["dhcp_inform"] as? [String: Any])
        #expect(inform["server"] as? String == "198.51.100.1" && inform["state"] as? String == "answered")
        #expect(inform["dns"] as? [String] == ["198.51.100.1"] && inform["ignored"] as? Int == 0)
        let capport = try #require(document["capport"] as? [String: Any])
        #expect(capport["state"] as? String == "answered" && capport["seconds_remaining"] as? Int == 3600)
        #expect(document["partial"] as? Bool == true && document["proxy"] as? Bool == true)
        let interfaces = try #require(document["interfaces"] as? [[String: Any]])
        #expect(interfaces.map { $0["type"] as? String } == ["wifi", "cellular", "tunnel"])
    }

    /// Every duration form the checks produce is written as JSONEncoder writes that number.
    @Test func durationsAreWrittenAsJSONEncoderWritesThem() throws {
        for ms in Self.durations {
            let text = JSONFormatter.format(Self.rich(ms: ms))
            let value = try Self.parsed(text)
            guard case .object(let members) = value.content, let duration = members["duration_ms"] else {
                Issue.record("no duration_ms for \(ms)")
                continue
            }
            let start = text.utf8.index(text.utf8.startIndex, offsetBy: duration.position.offset)
            let written = String(text.utf8[start...].prefix { $0 != UInt8(ascii: ",") && $0 != UInt8(ascii: "}") })!
            #expect(written == Self.encoderOutput(Rounding.ms(ms)), "\(ms)")
        }
    }

    /// The recorded outputs are JSON that the strict reader takes, and every hostile string
    /// comes back from it unchanged.
    @Test func writtenReportsReadBackWithTheirStrings() throws {
        let written = JSONFormatter.format(Self.rich(ms: 42), pretty: false)
        let value = try JSONReader.parse(Array(written.utf8), limits: .init(maxBytes: 1 << 20))
        var strings: [String] = []
        func collect(_ value: JSONValue) {
            switch value.content {
            case .string(let text): strings.append(text)
            case .array(let items): items.forEach(collect)
            case .object(let members): members.forEach { collect($0.value) }
            default: break
            }
        }
        collect(value)
        #expect(strings.contains(Self.hostile))
    }

    /// What a default JSONEncoder writes for a plain value.
    static func encoderOutput(_ value: some Encodable) -> String {
        (try? JSONEncoder().encode(value)).map { String(decoding: $0, as: UTF8.self) } ?? "null"
    }

    /// Every Double the formatter could meet, not only the listed ones: random bit patterns and
    /// values on the 0.1 ms grid, each as JSONEncoder prints a one-element array of it.
    @Test func numbersMatchJSONEncoder() {
        var generator = SystemRandomNumberGenerator()
        var values = Self.durations
        for _ in 0..<20_000 {
            values.append(Double(bitPattern: generator.next()))
            values.append((Double.random(in: 0...1e9, using: &generator) * 10).rounded() / 10)
        }
        for value in values where value.isFinite {
            let new = JSONOut.array([.number(value)]).rendered()
            #expect(new == Self.encoderOutput([value]), "\(value)")
        }
        for value in [0, 1, -1, 302, Int.max, Int.min] {
            #expect(JSONOut.array([.int(value)]).rendered() == Self.encoderOutput([value]))
        }
    }

    /// The documents list keys in order, and the writer then skips sorting; an object whose
    /// keys come in another order is still written sorted by UTF-8 bytes.
    @Test func unorderedKeysAreStillWrittenSorted() {
        let object = JSONOut.object(["b": .int(2), "a": .int(1), "ä": .null, "Z": .bool(true), "a_b": .string("x")])
        #expect(object.rendered() == #"{"Z":true,"a":1,"a_b":"x","b":2,"ä":null}"#)
        let ordered = JSONOut.object(["Z": .bool(true), "a": .int(1), "a_b": .string("x"), "b": .int(2), "ä": .null])
        #expect(ordered.rendered() == object.rendered())
    }

    /// WatchRecord's extra keys went through a default JSONEncoder, which escapes `/`; none of
    /// their values can hold one (fixed words, and interface names, which the kernel and
    /// `--interface` refuse with a slash), so the shared writer gives the same bytes.
    @Test func watchStringsMatchJSONEncoder() {
        let strings = ["verdict", "reason", "portal_url", "paths", Self.hostile.replacingOccurrences(of: "/", with: "")]
        #expect(JSONOut.array(strings.map { .string($0) }).rendered() == Self.encoderOutput(strings))
        for string in strings {
            #expect(JSONOut.string(string).rendered() == Self.encoderOutput(string))
        }
    }
}
