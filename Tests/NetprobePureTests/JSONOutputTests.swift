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

/// The hand-written JSON output (JSONWriter) writes what JSONEncoder with sorted keys and
/// unescaped slashes wrote: every report shape, hostile strings in every field, and the
/// durations' number forms. Reports and paths are held to fingerprints recorded when both
/// writers were compared byte for byte (JSONOutputFingerprints.txt); numbers and strings are
/// compared with JSONEncoder itself on plain values.
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

    /// FNV-1a 64 of the UTF-8 bytes: a fingerprint to notice a change, not a defence.
    static func fingerprint(_ text: String) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in text.utf8 { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
        let hex = String(hash, radix: 16)
        return "\(text.utf8.count) " + String(repeating: "0", count: 16 - hex.count) + hex
    }

    static let recorded: [String: String] = {
        let file = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("JSONOutputFingerprints.txt")
        let text = (try? String(contentsOf: file, encoding: .utf8)) ?? ""
        var table: [String: String] = [:]
        for line in text.split(separator: "\n") where !line.hasPrefix("#") {
            let fields = line.split(separator: " ", maxSplits: 1)
            if fields.count == 2 { table[String(fields[0])] = String(fields[1]) }
        }
        return table
    }()

    /// Re-recording, after a change that adds keys on purpose: with NETPROBE_RECORD_FINGERPRINTS=FILE
    /// (with `swift test --no-parallel`) each fingerprint is appended to FILE, to be copied into
    /// JSONOutputFingerprints.txt, and the test
    /// fails, so a recording run can never pass for a checked one.
    static func rerecord(_ name: String, _ written: String) -> Bool {
        guard let file = ProcessInfo.processInfo.environment["NETPROBE_RECORD_FINGERPRINTS"], !file.isEmpty else { return false }
        let line = "\(name) \(fingerprint(written))\n"
        if let handle = FileHandle(forWritingAtPath: file) {
            handle.seekToEndOfFile()
            handle.write(Data(line.utf8))
            handle.closeFile()
        } else {
            _ = FileManager.default.createFile(atPath: file, contents: Data(line.utf8))
        }
        Issue.record("re-recorded \(name) into \(file): not a check")
        return true
    }

    @Test(arguments: [false, true])
    func reportsAreWrittenAsRecorded(_ pretty: Bool) throws {
        for (index, report) in Self.reports.enumerated() {
            let name = "report-\(index)" + (pretty ? "-pretty" : "")
            let written = JSONFormatter.format(report, pretty: pretty)
            if Self.rerecord(name, written) { continue }
            let expected = try #require(Self.recorded[name], "no fingerprint for \(name)")
            #expect(Self.fingerprint(written) == expected, "\(name) differs from the recorded output:\n\(written)")
        }
    }

    @Test(arguments: [false, true])
    func pathsAreWrittenAsRecorded(_ pretty: Bool) throws {
        for (index, path) in [ReportFixtures.path, Self.hostilePath, Self.emptyPath].enumerated() {
            let name = "path-\(index)" + (pretty ? "-pretty" : "")
            let written = JSONFormatter.format(path, pretty: pretty)
            if Self.rerecord(name, written) { continue }
            let expected = try #require(Self.recorded[name], "no fingerprint for \(name)")
            #expect(Self.fingerprint(written) == expected, "\(name) differs from the recorded output:\n\(written)")
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
