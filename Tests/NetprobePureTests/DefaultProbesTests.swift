import Foundation
@testable import NetprobeWire
import NetprobeVerdict
import NetprobeOutput
import NetprobeReport
import NetprobeSystem
import NetprobeNetwork
import NetprobeCheck
import NetprobeWatch
import Testing

/// The repository's probes.json is valid, is the probe set written out below, and the copy
/// compiled into the binary (constructed in Swift) is the same set.
@Suite struct DefaultProbesTests {
    static let fileURL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("probes.json")

    static func fileText() throws -> String {
        try String(contentsOf: fileURL, encoding: .utf8)
    }

    /// The built-in set is constructed in Swift; it must be the repository's file exactly.
    @Test func builtInSetEqualsTheFile() throws {
        let config = try ConfigParser.parse(Data(try Self.fileText().utf8), file: Self.fileURL.path)
        #expect(config == DefaultProbes.config(), "DefaultProbes.swift differs from probes.json")
    }

    @Test func loadReadsTheFileFromDisk() throws {
        let config = try ConfigParser.load(path: Self.fileURL.path)
        #expect(config.probes.count == 8)
    }

    @Test func loadOfAMissingFileNamesTheFile() {
        let path = "/nonexistent/netprobe-core-tests/probes.json"
        do {
            _ = try ConfigParser.load(path: path)
            Issue.record("a missing file loaded")
        } catch {
            #expect(error.issues.count == 1)
            #expect(error.issues.first?.file == path)
            #expect(error.issues.first?.path == "$")
            #expect(error.issues.first?.message.contains("does not exist") == true)
        }
    }

    @Test func globalSettings() {
        let config = DefaultProbes.config()
        #expect(config.version == 1)
        #expect(config.timeout == 10)
        #expect(config.probeTimeout == 6)
        #expect(config.quorum == 2)
        #expect(config.maxBodyBytes == 65536)
        // apple and google run two probes each (HTTP and HTTPS): six independent operators.
        #expect(config.operatorCount == 6)
    }

    /// Certificate-verified HTTPS from at least three independent operators, so that a
    /// network that passes only HTTPS (port 80 blocked or broken) can make the quorum alone.
    @Test func httpsAloneCanMakeTheQuorum() {
        let config = DefaultProbes.config()
        let httpsOperators = Set(config.probes.filter(\.isHTTPS).map(\.operatorName))
        #expect(httpsOperators.count >= 3)
        #expect(httpsOperators.count >= config.quorum)
    }

    struct Row: Sendable, CustomTestStringConvertible {
        var name: String
        var url: String
        var operatorName: String
        var expect: NetprobeWire.Expectation
        var testDescription: String { name }
    }

    /// The built-in probe set, each endpoint with its real expected answer: a change to it must change this table too.
    static let contract: [Row] = [
        Row(name: "apple", url: "http://captive.apple.com/hotspot-detect.html", operatorName: "apple",
            expect: NetprobeWire.Expectation(statuses: [200], body: .contains("Success"))),
        Row(name: "google", url: "http://connectivitycheck.gstatic.com/generate_204", operatorName: "google",
            expect: NetprobeWire.Expectation(statuses: [204], body: .exact(""))),
        Row(name: "firefox", url: "http://detectportal.firefox.com/success.txt", operatorName: "mozilla",
            expect: NetprobeWire.Expectation(statuses: [200], body: .prefix("success"))),
        Row(name: "microsoft", url: "http://www.msftconnecttest.com/connecttest.txt", operatorName: "microsoft",
            expect: NetprobeWire.Expectation(statuses: [200], body: .exact("Microsoft Connect Test"))),
        Row(name: "gnome", url: "http://nmcheck.gnome.org/check_network_status.txt", operatorName: "gnome",
            expect: NetprobeWire.Expectation(statuses: [200], body: .prefix("NetworkManager is online"),
                                successHeader: HeaderRule(name: "X-NetworkManager-Status", value: "online"))),
        Row(name: "google-https", url: "https://www.google.com/generate_204", operatorName: "google",
            expect: NetprobeWire.Expectation(statuses: [204])),
        Row(name: "apple-https", url: "https://captive.apple.com/hotspot-detect.html", operatorName: "apple",
            expect: NetprobeWire.Expectation(statuses: [200], body: .contains("Success"))),
        Row(name: "cloudflare-https", url: "https://cp.cloudflare.com/generate_204", operatorName: "cloudflare",
            expect: NetprobeWire.Expectation(statuses: [204])),
    ]

    @Test func contractCoversTheWholeSet() {
        #expect(Self.contract.map(\.name) == DefaultProbes.config().probes.map(\.name))
    }

    @Test(arguments: contract)
    func contractProbe(_ row: Row) throws {
        let spec = try #require(DefaultProbes.config().probes.first { $0.name == row.name })
        #expect(spec.url == row.url)
        #expect(spec.operatorName == row.operatorName)
        #expect(spec.expect == row.expect)
        #expect(spec.family == nil)
        #expect(spec.interface == nil)
        #expect(spec.isHTTPS == row.url.hasPrefix("https://"))
    }
}

/// Valid documents that exercise the optional parts of the schema.
@Suite struct ConfigAcceptanceTests {
    @Test func operatorDefaultsToTheLowerCasedURLHost() throws {
        let json = #"""
        {"version": 1, "quorum": 2, "probes": [
          {"name": "a", "url": "http://Probe.Example.ORG:8080/x", "expect": {"status": [204]}},
          {"name": "b", "url": "https://other.example/y", "operator": "acme", "expect": {"status": [204]}}
        ]}
        """#
        let config = try ConfigParser.parse(Data(json.utf8), file: "t.json")
        #expect(config.probes.map(\.operatorName) == ["probe.example.org", "acme"])
        #expect(config.operatorCount == 2)
        // Unset globals keep their defaults.
        #expect(config.timeout == 10 && config.probeTimeout == 6 && config.maxBodyBytes == 65536)
    }

    @Test func everyOptionalField() throws {
        let json = #"""
        {"$schema": "https://example.org/probes.schema.json", "version": 1, "timeout": 2.5,
         "probe_timeout": 0.5, "quorum": 1, "max_body_bytes": 1024, "probes": [
          {"name": "v6", "url": "http://[2001:db8::1]/ok", "family": "ipv6", "interface": "eth0",
           "expect": {"status": [200, 204], "body": {"prefix": "ok"},
                      "success_header": {"name": "X-Status", "value": "online"}}}
        ]}
        """#
        let config = try ConfigParser.parse(Data(json.utf8), file: "t.json")
        #expect(config.timeout == 2.5 && config.probeTimeout == 0.5 && config.quorum == 1 && config.maxBodyBytes == 1024)
        let probe = try #require(config.probes.first)
        #expect(probe.family == .ipv6)
        #expect(probe.interface == "eth0")
        #expect(probe.operatorName == "2001:db8::1" || probe.operatorName == "[2001:db8::1]")
        #expect(probe.expect == NetprobeWire.Expectation(statuses: [200, 204], body: .prefix("ok"),
                                            successHeader: HeaderRule(name: "X-Status", value: "online")))
    }
}
