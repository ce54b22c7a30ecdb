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

/// Shared building blocks: the default probe set and compact ways to describe
/// what a probe saw, so the tables in the other files stay one line per case.
enum Fixtures {
    /// The built-in default set (the repository's probes.json).
    static let config = DefaultProbes.config()

    static func spec(_ name: String) -> ProbeSpec {
        guard let spec = config.probes.first(where: { $0.name == name }) else {
            preconditionFailure("no default probe named \(name)")
        }
        return spec
    }

    /// A probe of an arbitrary operator, for quorum cases the default set cannot express.
    static func customSpec(_ name: String, operator operatorName: String, https: Bool = false) -> ProbeSpec {
        ProbeSpec(name: name, url: (https ? "https://" : "http://") + "\(name).example/check", operatorName: operatorName,
                  expect: NetprobeWire.Expectation(statuses: [204]))
    }

    /// What the HTTP layer hands over: header names lower-cased, body as bytes.
    static func observation(
        _ spec: ProbeSpec, status: Int?, body: String = "", headers: [(String, String)] = [],
        truncated: Bool = false, error: TransportErrorKind? = nil, message: String = "failed", totalMs: Double = 12
    ) -> ProbeObservation {
        ProbeObservation(
            name: spec.name, url: spec.url, status: status,
            headers: headers.map { (name: $0.0.lowercased(), value: $0.1) },
            body: Array(body.utf8), bodyTruncated: truncated,
            transportError: error.map { TransportError(kind: $0, code: 0, message: message) },
            timings: ProbeTimings(dnsMs: 1, connectMs: 2, firstByteMs: 3, totalMs: totalMs),
            remoteAddress: status == nil ? nil : "198.51.100.10"
        )
    }

    /// The exact answers each default endpoint really gives.
    static func expectedAnswer(_ name: String) -> ProbeObservation {
        let spec = spec(name)
        switch name {
        case "apple", "apple-https":
            return observation(spec, status: 200, body: "<HTML><HEAD><TITLE>Success</TITLE></HEAD><BODY>Success</BODY></HTML>\n")
        case "google", "google-https", "cloudflare-https":
            return observation(spec, status: 204)
        case "firefox":
            return observation(spec, status: 200, body: "success\n")
        case "microsoft":
            return observation(spec, status: 200, body: "Microsoft Connect Test")
        case "gnome":
            return observation(spec, status: 200, body: "NetworkManager is online\n",
                               headers: [("X-NetworkManager-Status", "online")])
        default:
            preconditionFailure("no expected answer for \(name)")
        }
    }
}

/// One settled probe in a verdict table: its name in the default set, outcome and error class.
struct Settled: Sendable, CustomStringConvertible {
    var name: String
    var outcome: ProbeOutcome
    var errorClass: ErrorClass?

    var description: String { "\(name)=\(outcome.rawValue)" + (errorClass.map { "/\($0.rawValue)" } ?? "") }

    static func ok(_ name: String) -> Settled { Settled(name: name, outcome: .success) }
    static func portal(_ name: String, _ errorClass: ErrorClass) -> Settled { Settled(name: name, outcome: .portal, errorClass: errorClass) }
    static func fail(_ name: String, _ errorClass: ErrorClass) -> Settled { Settled(name: name, outcome: .failure, errorClass: errorClass) }
    static func skipped(_ name: String) -> Settled { Settled(name: name, outcome: .skipped) }

    var evidence: ProbeEvidence {
        let spec = Fixtures.config.probes.first { $0.name == name } ?? Fixtures.customSpec(name, operator: name)
        return ProbeEvidence(spec: spec, outcome: outcome, errorClass: errorClass,
                             skipReason: outcome == .skipped ? .decided : nil)
    }
}

/// The default set's plain-HTTP probes, one per operator.
let httpNames = ["apple", "google", "firefox", "microsoft", "gnome"]
/// Its certificate-verified HTTPS probes, one per operator (apple, google, cloudflare).
let httpsNames = ["google-https", "apple-https", "cloudflare-https"]

/// All eight default probes answering as expected: six operators.
let allFine: [Settled] = (httpNames + httpsNames).map(Settled.ok)

/// Parses a probes.json text, returning the issues (empty when it is valid).
func configIssues(_ json: String, file: String = "test.json") -> [ConfigIssue] {
    do {
        _ = try ConfigParser.parse(Data(json.utf8), file: file)
        return []
    } catch {
        return error.issues
    }
}
