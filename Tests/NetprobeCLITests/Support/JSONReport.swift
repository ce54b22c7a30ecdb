import Foundation

/// netprobe's --json output, parsed with JSONSerialization (independently of the
/// encoder that wrote it), with typed access to the fields the tests check.
struct JSONReport {
    let root: [String: Any]

    init(_ text: String) throws {
        let object = try JSONSerialization.jsonObject(with: Data(text.utf8))
        guard let root = object as? [String: Any] else {
            throw HarnessError(description: "the JSON output is not an object: \(text)")
        }
        self.root = root
    }

    var verdict: String? { root["verdict"] as? String }
    var reason: String? { root["reason"] as? String }
    var schemaVersion: Int? { root["schema_version"] as? Int }
    var durationMs: Double? { root["duration_ms"] as? Double }
    /// nil when the key is null.
    var portal: [String: Any]? { root["portal"] as? [String: Any] }
    var portalURL: String? { portal?["url"] as? String }
    /// true/false, or nil for null.
    var partial: Bool? { JSONReport.bool(root["partial"]) }
    var quorum: [String: Any]? { root["quorum"] as? [String: Any] }
    var probes: [JSONProbe] { (root["probes"] as? [[String: Any]] ?? []).map(JSONProbe.init) }

    func probe(_ name: String) -> JSONProbe? { probes.first { $0.name == name } }

    func isNull(_ key: String) -> Bool { root[key] is NSNull }

    static func bool(_ value: Any?) -> Bool? {
        if let flag = value as? Bool { return flag }
        return (value as? NSNumber)?.boolValue
    }

    /// The report without the values that differ from run to run (durations,
    /// timestamps, timings, the random MAC each new veth gets, and the bytes the kernel counted
    /// on the wire, which an acknowledgement in flight at close moves), for comparing two runs
    /// of the same scenario.
    static func stable(_ value: Any) -> Any {
        let volatile: Set<String> = ["duration_ms", "timestamp", "timings", "total_ms", "hardware_address", "dns_canary",
                                     "wire"]
        if let object = value as? [String: Any] {
            var copy: [String: Any] = [:]
            for (key, item) in object where !volatile.contains(key) { copy[key] = stable(item) }
            return copy
        }
        if let array = value as? [Any] { return array.map(stable) }
        return value
    }
}

struct JSONProbe: CustomStringConvertible {
    let fields: [String: Any]

    var name: String? { fields["name"] as? String }
    var url: String? { fields["url"] as? String }
    var outcome: String? { fields["outcome"] as? String }
    var errorClass: String? { fields["error_class"] as? String }
    var skipReason: String? { fields["skip_reason"] as? String }
    var status: Int? { fields["status"] as? Int }
    var bodyMatched: Bool? { JSONReport.bool(fields["body_matched"]) }
    var bodyBytes: Int? { fields["body_bytes"] as? Int }
    var bodyTruncated: Bool? { JSONReport.bool(fields["body_truncated"]) }
    var remoteAddress: String? { fields["remote_address"] as? String }
    var headers: [String: Any]? { fields["headers"] as? [String: Any] }
    var location: String? { headers?["location"] as? String }
    var timings: [String: Any]? { fields["timings"] as? [String: Any] }
    var error: String? { fields["error"] as? String }

    var description: String {
        let data = try? JSONSerialization.data(withJSONObject: fields, options: [.sortedKeys])
        return data.map { String(decoding: $0, as: UTF8.self) } ?? "\(fields)"
    }
}
