import Foundation

/// The parts of a `watch --format json` record (or a `wait --json` report) the tests look at.
struct Record: Decodable, Equatable, CustomStringConvertible {
    struct Portal: Decodable, Equatable {
        var url: String?
        var expiresAt: String?
        enum CodingKeys: String, CodingKey {
            case url
            case expiresAt = "expires_at"
        }
    }

    var schemaVersion: Int
    var verdict: String
    var reason: String
    var portal: Portal?
    var event: String?
    var previous: String?
    var previousReason: String?
    var changed: [String]?
    var trigger: String?
    var timestamp: String

    enum CodingKeys: String, CodingKey {
        case verdict, reason, portal, event, previous, changed, timestamp, trigger
        case schemaVersion = "schema_version"
        case previousReason = "previous_reason"
    }

    static func parse(_ line: String) throws -> Record {
        try JSONDecoder().decode(Record.self, from: Data(line.utf8))
    }

    static func parseAll(_ lines: [String]) throws -> [Record] {
        try lines.map(parse)
    }

    /// What counts as "the state" for change detection.
    var state: String { "\(verdict)/\(reason)" }
    var description: String { "\(event ?? "-") \(state) (was \(previous ?? "-"))" }
}
