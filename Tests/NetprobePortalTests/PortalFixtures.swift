import Foundation
@testable import NetprobeWire
@testable import NetprobeVerdict
@testable import NetprobeOutput
@testable import NetprobeReport
@testable import NetprobeSystem
@testable import NetprobeNetwork
@testable import NetprobeCheck
@testable import NetprobeWatch

/// Probe answers for the default probe set, described compactly.
enum PortalFixtures {
    static let config = DefaultProbes.config()
    static let lab = "203.0.113.10"

    static func spec(_ name: String) -> ProbeSpec {
        guard let spec = config.probes.first(where: { $0.name == name }) else { preconditionFailure("no probe \(name)") }
        return spec
    }

    /// What a probe saw, judged by the real Classifier.
    static func answer(_ name: String, status: Int?, body: String = "", headers: [(String, String)] = [],
                       address: String? = lab, error: TransportErrorKind? = nil, message: String = "failed") -> ProbeEvidence {
        let spec = spec(name)
        let observation = ProbeObservation(
            name: name, url: spec.url, status: status, headers: headers.map { (name: $0.0.lowercased(), value: $0.1) },
            body: Array(body.utf8), transportError: error.map { TransportError(kind: $0, code: 7, message: message) },
            timings: ProbeTimings(totalMs: 10), remoteAddress: address)
        return Classifier.classify(observation, for: spec)
    }

    /// The real endpoints' correct answers.
    static func correct(_ name: String, headers: [(String, String)] = [], address: String = lab) -> ProbeEvidence {
        switch name {
        case "apple": return answer(name, status: 200, body: "<HTML><BODY>Success</BODY></HTML>", headers: headers, address: address)
        case "google", "google-https": return answer(name, status: 204, headers: headers, address: address)
        case "firefox": return answer(name, status: 200, body: "success\n", headers: headers, address: address)
        case "microsoft": return answer(name, status: 200, body: "Microsoft Connect Test", headers: headers, address: address)
        case "gnome": return answer(name, status: 200, body: "NetworkManager is online\n", headers: headers, address: address)
        default: preconditionFailure("no answer for \(name)")
        }
    }

    static func capport(captive: Bool, portal: String? = nil, seconds: Int? = nil) -> CapportReport {
        CapportReport(uri: "https://capport.portal.test/api", source: "systemd-networkd", interface: "eth0", state: .answered,
                      status: 200, answer: CapportAnswer(captive: captive, userPortalURL: portal, secondsRemaining: seconds),
                      durationMs: 5)
    }

    static let wisprPage = """
        <html><!--<WISPAccessGatewayParam><Redirect><LoginURL>/wispr/login?x=1&amp;y=2</LoginURL>
        <LocationName>Lab Cafe</LocationName><MessageType>100</MessageType><ResponseCode>0</ResponseCode>
        </Redirect></WISPAccessGatewayParam>--><meta http-equiv="refresh" content="0; url=/meta"></html>
        """

    static let path = PathSnapshot(
        interfaces: [NetworkInterface(name: "eth0", index: 2, type: .ethernet, up: true, carrier: true, operstate: "up", mtu: 1500,
                                      addresses: [InterfaceAddress(family: .ipv4, address: "198.51.100.2", prefixLength: 24, scope: .global)])],
        defaultRoutes: [DefaultRoute(family: .ipv4, gateway: "198.51.100.1", interface: "eth0", interfaceIndex: 2, metric: 100, table: 254)],
        kernelRoutes: [RouteAnswer(family: .ipv4, destination: "8.8.8.8", interface: "eth0", interfaceIndex: 2, table: 254)],
        dns: DNSConfiguration(servers: ["198.51.100.1"], localStub: false, source: "/etc/resolv.conf"))

    /// A whole report, as the Checker builds it.
    static func report(_ evidence: [ProbeEvidence], capport: CapportReport? = nil, canary: DNSCanaryReport? = nil) -> Report {
        let findings = PathFindings(quorum: 2, gate: .pass(families: [.ipv4], interfaces: ["eth0"]), settled: evidence,
                                    capport: capport, canary: canary)
        let answer = PathReport(interface: "eth0", family: nil, isDefault: true, conclusion: VerdictEngine.conclude(findings),
                                families: [.ipv4], probes: evidence, durationMs: 42, capport: capport, canary: canary)
        return Report(paths: [answer], overall: 0, durationMs: 42, timestamp: Date(timeIntervalSince1970: 1_700_000_000), path: path)
    }
}
