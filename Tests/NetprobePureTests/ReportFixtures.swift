import Foundation
import NetprobeWire
import NetprobeVerdict
import NetprobeOutput
import NetprobeReport
import NetprobeSystem
import NetprobeNetwork
import NetprobeCheck
import NetprobeWatch

/// A portal report whose network-supplied strings (Location, error text) carry
/// terminal escape sequences, as a hostile portal could send them.
enum ReportFixtures {
    static let hostileLocation = "http://portal.example/login?x=\u{1B}[2J\u{1B}]0;owned\u{07}\u{9B}31m\u{202E}"
    static let hostileError = "Connection reset \u{1B}[31mby peer\u{00}\u{7F}\r\nFAKE: online"
    /// What a JSON value holds of them: every C0/C1 control and DEL replaced by U+FFFD (bidi kept).
    static let filteredLocation = "http://portal.example/login?x=\u{FFFD}[2J\u{FFFD}]0;owned\u{FFFD}\u{FFFD}31m\u{202E}"
    static let filteredError = "Connection reset \u{FFFD}[31mby peer\u{FFFD}\u{FFFD}\u{FFFD}\u{FFFD}FAKE: online"

    static let path = PathSnapshot(
        interfaces: [
            NetworkInterface(name: "lo", index: 1, type: .loopback, up: true, carrier: true, operstate: "unknown", mtu: 65536),
            NetworkInterface(name: "eth0", index: 2, type: .ethernet, kind: "veth", up: true, carrier: true, operstate: "up", mtu: 1500,
                             hardwareAddress: "02:00:00:00:00:01",
                             addresses: [InterfaceAddress(family: .ipv4, address: "198.51.100.2", prefixLength: 24, scope: .global)]),
        ],
        defaultRoutes: [DefaultRoute(family: .ipv4, gateway: "198.51.100.1", interface: "eth0", interfaceIndex: 2, metric: 100, table: 254)],
        dns: DNSConfiguration(servers: ["198.51.100.1"], localStub: false, source: "/etc/resolv.conf")
    )

    static func evidence() -> [ProbeEvidence] {
        let apple = Fixtures.spec("apple"), google = Fixtures.spec("google"), firefox = Fixtures.spec("firefox")
        let redirect = Fixtures.observation(apple, status: 302, body: "<html>\u{1B}[5mmoved</html>",
                                            headers: [("Location", hostileLocation), ("Content-Type", "text/html"),
                                                      ("Content-Length", "27"), ("Via", "1.1 portal\u{1B}[0m")])
        let reset = Fixtures.observation(google, status: nil, error: .reset, message: hostileError)
        return [
            Classifier.classify(redirect, for: apple),
            Classifier.classify(reset, for: google),
            Classifier.classify(Fixtures.expectedAnswer("firefox"), for: firefox),
            .skipped(Fixtures.spec("microsoft"), because: .decided),
        ]
    }

    static func report(portal: PortalInfo? = PortalInfo(url: hostileLocation, source: "redirect", probe: "apple", status: 302),
                       verdict: Verdict = .portal, reason: Reason = .httpRedirect) -> Report {
        let conclusion = Conclusion(verdict: verdict, reason: reason, portal: portal, successOperators: 1, portalOperators: 1, quorum: 2)
        let answer = PathReport(interface: "eth0", family: nil, isDefault: true, conclusion: conclusion, families: [.ipv4],
                                probes: evidence(), durationMs: 123.456)
        return Report(paths: [answer], overall: 0, durationMs: 123.456, timestamp: Date(timeIntervalSince1970: 1_700_000_000), path: path)
    }

    static func parse(_ json: String) throws -> [String: Any] {
        let object = try JSONSerialization.jsonObject(with: Data(json.utf8))
        guard let dictionary = object as? [String: Any] else { throw ParseError.notAnObject }
        return dictionary
    }

    enum ParseError: Error { case notAnObject }
}
