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

/// How the `.invalid` canary's transfer is read: any sign of a connection means the name resolved.
struct DNSCanaryTests {
    struct Case: CustomTestStringConvertible, Sendable {
        var label: String
        var error: TransportErrorKind?
        var status: Int?
        var address: String?
        var resolved: Bool?
        var testDescription: String { label }
    }

    static let cases: [Case] = [
        Case(label: "NXDOMAIN, as it must", error: .dns, resolved: false),
        Case(label: "an HTTP answer from wherever it led", error: nil, status: 200, address: "10.66.0.1", resolved: true),
        Case(label: "connection refused at the address", error: .refused, address: "192.168.1.1", resolved: true),
        Case(label: "unreachable address", error: .unreachable, resolved: true),
        Case(label: "cancelled before the lookup finished", error: .cancelled, resolved: nil),
        Case(label: "cancelled while connecting", error: .cancelled, address: "10.0.0.1", resolved: true),
        Case(label: "lookup still running at the deadline", error: .timeout, resolved: nil),
        Case(label: "set-up failure says nothing", error: .other, resolved: nil),
    ]

    @Test(arguments: cases)
    func reads(_ c: Case) {
        let observation = ProbeObservation(
            name: "#dns-canary", url: "http://netprobe-0123456789ab.invalid/", status: c.status,
            transportError: c.error.map { TransportError(kind: $0, code: 0, message: "") }, remoteAddress: c.address)
        let report = DNSCanaryReport.from(observation, name: "netprobe-0123456789ab.invalid")
        #expect(report.resolved == c.resolved)
        #expect(report.address == c.address)
        #expect(report.name == "netprobe-0123456789ab.invalid")
    }

    @Test func eachCanaryAsksForAFreshInvalidName() throws {
        let template = ProbeRequest(name: "apple", url: "http://captive.apple.com/", timeout: 4, interface: "wlan0", family: .ipv6)
        let first = try #require(DNSCanary.request(like: template))
        let second = try #require(DNSCanary.request(like: template))
        for canary in [first, second] {
            let label = canary.host.dropFirst("netprobe-".count).dropLast(".invalid".count)
            #expect(canary.host.hasPrefix("netprobe-") && canary.host.hasSuffix(".invalid"))
            #expect(label.utf8.count == 12 && label.utf8.allSatisfy { "0123456789abcdef".utf8.contains($0) }, "\(canary.host)")
            #expect(canary.request.url == "http://\(canary.host)/")
            #expect(canary.request.interface == "wlan0" && canary.request.family == .ipv6 && canary.request.timeout == 4)
        }
        // 48 random bits: two equal labels would mean the randomness is gone.
        #expect(first.host != second.host)
        #expect(DNSCanary.request(like: nil) == nil)
    }

    @Test func aResolvedCanaryIsShownAndEscaped() {
        let report = PortalFixtures.report(["apple", "google", "firefox"].map { PortalFixtures.correct($0) },
                                           canary: DNSCanaryReport(name: "netprobe-x.invalid", resolved: true, address: "10.0.0.1\u{1B}[2J"))
        #expect(report.dnsHijack)
        let text = TextFormatter.format(report)
        #expect(text.contains("dns canary: netprobe-x.invalid (a name that cannot exist) resolved to 10.0.0.1\\x1b[2J"))
        #expect(JSONFormatter.format(report).contains(#""dns_canary":{"address":"10.0.0.1\u001b[2J","name":"netprobe-x.invalid","resolved":true}"#))
    }
}
