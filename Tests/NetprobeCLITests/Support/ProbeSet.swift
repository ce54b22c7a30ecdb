import Foundation

/// A real connectivity-check endpoint: the path probe_server.py answers it on,
/// and the expectation probes.json gives it.
enum Endpoint: CaseIterable, Sendable {
    case apple, google, firefox, microsoft, gnome

    /// The path on which probe_server.py gives this endpoint's correct answer.
    var path: String {
        switch self {
        case .apple: return "/apple"
        case .google: return "/generate_204"
        case .firefox: return "/success.txt"
        case .microsoft: return "/connecttest.txt"
        case .gnome: return "/nm"
        }
    }

    var expect: [String: Any] {
        switch self {
        case .apple: return ["status": [200], "body": ["contains": "Success"]]
        case .google: return ["status": [204], "body": ["exact": ""]]
        case .firefox: return ["status": [200], "body": ["prefix": "success"]]
        case .microsoft: return ["status": [200], "body": ["exact": "Microsoft Connect Test"]]
        case .gnome:
            return ["status": [200], "body": ["prefix": "NetworkManager is online"],
                    "success_header": ["name": "X-NetworkManager-Status", "value": "online"]]
        }
    }

    var name: String { "\(self)" }
}

/// A probes.json for one test, pointing at the probe_server.py that netns_run.sh
/// starts on 127.0.0.1 inside the test's own namespace (fixed ports cannot clash there).
struct ProbeSet {
    /// The plain HTTP server (`ProbeSet.httpServer`).
    static let port = 8080
    /// The TLS server, when a test starts one.
    static let tlsPort = 8443
    /// Nothing listens here in a fresh namespace: connections are refused.
    static let closedPort = 9

    /// probe_server.py arguments for the plain HTTP server; `-v` logs every request.
    static let httpServer = "--port \(port) -v"

    static func url(_ path: String, port: Int = ProbeSet.port, scheme: String = "http", host: String = "127.0.0.1") -> String {
        "\(scheme)://\(host):\(port)\(path)"
    }

    var timeout: Double = 10
    var probeTimeout: Double = 8
    var quorum = 2
    var maxBodyBytes: Int?
    private(set) var probes: [[String: Any]] = []

    init(timeout: Double = 10, probeTimeout: Double = 8, quorum: Int = 2) {
        self.timeout = timeout
        self.probeTimeout = probeTimeout
        self.quorum = quorum
    }

    /// A probe with `endpoint`'s expectation, answered by `path` (default: the endpoint's
    /// correct answer) or fetched from `url`. Each probe is its own operator unless told.
    mutating func add(_ name: String, expecting endpoint: Endpoint = .google, path: String? = nil,
                      url: String? = nil, operator operatorName: String? = nil) {
        add(name, url: url ?? Self.url(path ?? endpoint.path), expect: endpoint.expect, operator: operatorName)
    }

    mutating func add(_ name: String, url: String, expect: [String: Any], operator operatorName: String? = nil) {
        probes.append(["name": name, "url": url, "operator": operatorName ?? name, "expect": expect])
    }

    /// The first `count` endpoints, each answering correctly.
    static func healthy(_ count: Int, quorum: Int = 2) -> ProbeSet {
        var set = ProbeSet(quorum: quorum)
        for endpoint in Endpoint.allCases.prefix(count) { set.add(endpoint.name, expecting: endpoint) }
        return set
    }

    /// `count` probes with the endpoints' expectations, every one answered by `path`.
    static func all(_ path: String, count: Int = 3, quorum: Int = 2, timeout: Double = 10) -> ProbeSet {
        var set = ProbeSet(timeout: timeout, probeTimeout: timeout, quorum: quorum)
        for endpoint in Endpoint.allCases.prefix(count) { set.add(endpoint.name, expecting: endpoint, path: path) }
        return set
    }

    func json() throws -> String {
        var top: [String: Any] = ["version": 1, "timeout": timeout, "probe_timeout": probeTimeout,
                                  "quorum": quorum, "probes": probes]
        if let maxBodyBytes { top["max_body_bytes"] = maxBodyBytes }
        let data = try JSONSerialization.data(withJSONObject: top, options: [.prettyPrinted, .sortedKeys])
        return String(decoding: data, as: UTF8.self)
    }
}
