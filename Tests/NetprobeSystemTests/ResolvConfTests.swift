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

@Suite("resolv.conf parsing")
struct ResolvConfTests {
    @Test func mixedFileKeepsValidServersAndLastSearch() throws {
        let path = try ResolvConfFixture.write(ResolvConfFixture.mixed)
        defer { ResolvConfFixture.remove(path) }
        let dns = ResolvConf.load(path: path)
        #expect(dns == DNSConfiguration(
            servers: ["127.0.0.53", "198.51.100.53", "2001:db8::53"],
            searchDomains: ["lab.example", "corp.example"], localStub: true, source: path))
    }

    @Test func upstreamServersAreNotAStub() throws {
        let path = try ResolvConfFixture.write(ResolvConfFixture.upstreamOnly)
        defer { ResolvConfFixture.remove(path) }
        let dns = ResolvConf.load(path: path)
        #expect(dns.servers == ["203.0.113.53", "fe80::1%eth0"])
        #expect(dns.searchDomains == ["site.example"])
        #expect(!dns.localStub)
    }

    @Test(arguments: [
        ("127.0.0.53", true), ("127.1.2.3", true), ("::1", true), ("::ffff:127.0.0.1", true),
        ("198.51.100.53", false), ("2001:db8::1", false), ("::", false), ("128.0.0.1", false),
    ])
    func loopbackDetection(address: String, loopback: Bool) {
        #expect(ResolvConf.isLoopback(address) == loopback)
    }

    @Test func ipv6LoopbackAloneIsAStub() {
        #expect(ResolvConf.parse("nameserver ::1\n", source: "x").localStub)
    }

    @Test func missingFileMeansNoServers() {
        let dns = ResolvConf.load(path: "/nonexistent/np-link/resolv.conf")
        #expect(dns.servers.isEmpty && dns.searchDomains.isEmpty && !dns.localStub)
        #expect(dns.source == "/nonexistent/np-link/resolv.conf")
    }

    /// An endless file must not hang or exhaust memory: the read is bounded.
    @Test func endlessFileIsReadBoundedly() {
        let dns = ResolvConf.load(path: "/dev/zero")
        #expect(dns.servers.isEmpty)
    }

    @Test func serversPastTheReadLimitAreIgnored() throws {
        let padding = String(repeating: "# padding line\n", count: ResolvConf.readLimit / 15 + 10)
        let path = try ResolvConfFixture.write("nameserver 198.51.100.1\n" + padding + "nameserver 198.51.100.2\n")
        defer { ResolvConfFixture.remove(path) }
        #expect(ResolvConf.load(path: path).servers == ["198.51.100.1"])
    }

    @Test func emptyZoneIsRejected() {
        #expect(!ResolvConf.isIPAddress("fe80::1%"))
        #expect(ResolvConf.isIPAddress("fe80::1%2"))
    }
}
