#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Reads a probes.json strictly: unknown keys, wrong types, impossible values and
/// non-HTTP(S) URLs are errors, each naming the file, the JSON path and what was expected.
public struct ConfigParser {
    public let file: String
    private var issues: [ConfigIssue] = []

    public static let supportedVersion = 1
    static let topKeys: Set<JSONKey> = ["$schema", "version", "timeout", "probe_timeout", "quorum", "max_body_bytes", "probes"]
    static let probeKeys: Set<JSONKey> = ["name", "url", "operator", "family", "interface", "expect"]
    static let expectKeys: Set<JSONKey> = ["status", "body", "success_header"]
    static let bodyKeys: Set<JSONKey> = ["exact", "prefix", "contains"]
    static let headerKeys: Set<JSONKey> = ["name", "value"]

    public init(file: String) {
        self.file = file
    }

    public static func parse(_ data: Data, file: String) throws(ConfigError) -> ProbeConfig {
        try parse(bytes: [UInt8](data), file: file)
    }

    /// A probe set is a few kilobytes; anything this large is a mistake, not a configuration.
    public static let maximumFileBytes = 1 << 20
    /// A file with thousands of mistakes gets the first few and a count, not megabytes of messages.
    public static let maximumIssues = 20

    public static func parse(bytes: [UInt8], file: String) throws(ConfigError) -> ProbeConfig {
        var parser = ConfigParser(file: file)
        let document: JSONValue
        do {
            document = try JSONReader.parse(bytes, limits: JSONReader.Limits(maxBytes: maximumFileBytes))
        } catch {
            throw ConfigError(issues: [ConfigIssue(file: file, path: error.path, message: "not valid JSON: \(error.message) (\(error.position))")])
        }
        parser.document = document
        let config = parser.config(from: document)
        if let config, parser.issueCount == 0 { return config }
        throw ConfigError(issues: parser.issues, omitted: parser.issueCount - parser.issues.count)
    }

    /// Every issue found, including those not kept beyond `maximumIssues`.
    private var issueCount = 0
    private var document: JSONValue?

    private mutating func fail(_ path: String, _ message: String) {
        issueCount += 1
        guard issues.count < Self.maximumIssues else { return }
        issues.append(ConfigIssue(file: file, path: path, message: message, position: document.flatMap { Self.position(of: path, in: $0) }))
    }

    /// The position of the value at `path`, or for a missing key, of the deepest value on the way to it.
    /// Follows the path down from the root, so only the (at most `maximumIssues`) issues kept pay for
    /// it, never a map of every value: a file of 200,000 probes stays small in memory.
    static func position(of target: String, in document: JSONValue) -> JSONPosition? {
        var node = document
        var path = JSONPath.root
        while path != target {
            let rest = target.dropFirst(path.count)
            var next: (path: String, value: JSONValue)?
            switch node.content {
            case .array(let items):
                if rest.first == "[", let close = rest.firstIndex(of: "]"),
                   let index = Int(rest[rest.index(after: rest.startIndex)..<close]), items.indices.contains(index) {
                    next = (JSONPath.element(path, index), items[index])
                }
            case .object(let members):
                for (key, value) in members {
                    let child = JSONPath.member(path, key.text)
                    if target == child || target.hasPrefix(child + ".") || target.hasPrefix(child + "[") {
                        next = (child, value)
                        break
                    }
                }
            default:
                break
            }
            guard let next else { break }
            (path, node) = next
        }
        return node.position
    }

    private mutating func object(_ value: JSONValue, at path: String, allowed: Set<JSONKey>) -> [JSONKey: JSONValue]? {
        guard case .object(let fields) = value.content else {
            fail(path, "expected an object, found \(value.kindName)")
            return nil
        }
        for key in fields.keys.sorted() where !allowed.contains(key) {
            fail(JSONPath.member(path, key.text), "unknown key; expected one of: \(allowed.sorted().map(\.text).joined(separator: ", "))")
        }
        return fields
    }

    private mutating func string(_ fields: [JSONKey: JSONValue], _ key: JSONKey, at path: String, required: Bool) -> String? {
        guard let value = fields[key] else {
            if required { fail("\(path).\(key)", "missing; expected a string") }
            return nil
        }
        guard case .string(let text) = value.content else {
            fail("\(path).\(key)", "expected a string, found \(value.kindName)")
            return nil
        }
        return text
    }

    private mutating func number(_ fields: [JSONKey: JSONValue], _ key: JSONKey, at path: String, range: ClosedRange<Double>, integer: Bool) -> Double? {
        guard let value = fields[key] else { return nil }
        let what = integer ? "an integer" : "a number"
        guard case .number(let number) = value.content else {
            fail("\(path).\(key)", "expected \(what) from \(Self.show(range.lowerBound)) to \(Self.show(range.upperBound)), found \(value.kindName)")
            return nil
        }
        if integer && number.rounded() != number || !range.contains(number) {
            fail("\(path).\(key)", "expected \(what) from \(Self.show(range.lowerBound)) to \(Self.show(range.upperBound)), found \(Self.show(number))")
            return nil
        }
        return number
    }

    public static func show(_ number: Double) -> String {
        number.rounded() == number && abs(number) < 1e15 ? String(Int(number)) : String(number)
    }

    private mutating func config(from document: JSONValue) -> ProbeConfig? {
        guard let top = object(document, at: "$", allowed: Self.topKeys) else { return nil }
        if let schema = top["$schema"], case .string = schema.content {} else if let schema = top["$schema"] {
            fail("$.$schema", "expected a string, found \(schema.kindName)")
        }
        var config = ProbeConfig(probes: [])
        if let version = number(top, "version", at: "$", range: 1...1_000, integer: true) {
            if Int(version) != Self.supportedVersion {
                fail("$.version", "expected \(Self.supportedVersion) (the only version this netprobe reads), found \(Self.show(version))")
            }
        } else if top["version"] == nil {
            fail("$.version", "missing; expected \(Self.supportedVersion)")
        }
        if let timeout = number(top, "timeout", at: "$", range: 0.1...3_600, integer: false) { config.timeout = timeout }
        if let timeout = number(top, "probe_timeout", at: "$", range: 0.1...3_600, integer: false) { config.probeTimeout = timeout }
        if let bytes = number(top, "max_body_bytes", at: "$", range: 256...1_048_576, integer: true) { config.maxBodyBytes = Int(bytes) }
        let quorumIssuesBefore = issueCount
        let quorum = number(top, "quorum", at: "$", range: 1...1_000, integer: true)
        let quorumSound = issueCount == quorumIssuesBefore
        let probeIssuesBefore = issueCount
        config.probes = probes(top["probes"])
        if let quorum { config.quorum = Int(quorum) }
        let operators = config.operatorCount
        // Judged only on a sound probe list: a dropped probe would make the count, and so the message, wrong.
        if quorumSound && issueCount == probeIssuesBefore && !config.probes.isEmpty && config.quorum > operators {
            if quorum == nil {
                fail("$.quorum", "missing, so the default \(config.quorum) applies, but there are only \(operators) distinct probe operator(s); set \"quorum\" to at most \(operators)")
            } else {
                fail("$.quorum", "expected at most \(operators) (the number of distinct probe operators), found \(config.quorum)")
            }
        }
        return config
    }

    private mutating func probes(_ value: JSONValue?) -> [ProbeSpec] {
        guard let value else {
            fail("$.probes", "missing; expected a non-empty array of probes")
            return []
        }
        guard case .array(let items) = value.content else {
            fail("$.probes", "expected a non-empty array of probes, found \(value.kindName)")
            return []
        }
        if items.isEmpty { fail("$.probes", "expected at least one probe, found an empty array") }
        if items.count > 64 { fail("$.probes", "expected at most 64 probes, found \(items.count)") }
        var seen: [JSONKey: Int] = [:]
        var result: [ProbeSpec] = []
        for (index, item) in items.enumerated() {
            let path = "$.probes[\(index)]"
            // Names are compared even on probes with other mistakes, so a duplicate is never hidden by them.
            if case .object(let fields) = item.content, case .string(let name)? = fields["name"]?.content {
                if let first = seen[JSONKey(name)] {
                    fail("\(path).name", "duplicate name \"\(name)\" (first used by $.probes[\(first)])")
                } else {
                    seen[JSONKey(name)] = index
                }
            }
            if let probe = probe(item, at: path) { result.append(probe) }
        }
        return result
    }

    private mutating func probe(_ value: JSONValue, at path: String) -> ProbeSpec? {
        guard let fields = object(value, at: path, allowed: Self.probeKeys) else { return nil }
        let name = string(fields, "name", at: path, required: true)
        if let name, name.isEmpty || name.count > 64 || !name.allSatisfy({ $0.isLetter || $0.isNumber || "-_.".contains($0) }) || !name.allSatisfy(\.isASCII) {
            fail("\(path).name", "expected 1-64 characters of A-Z a-z 0-9 - _ ., found \"\(name)\"")
        }
        let url = string(fields, "url", at: path, required: true)
        var host: String?
        if let url {
            host = URLRules.httpHost(url)
            if host == nil { fail("\(path).url", "expected an absolute http:// or https:// URL with a host, found \"\(url)\"") }
        }
        let operatorName = string(fields, "operator", at: path, required: false)
        if let operatorName, operatorName.isEmpty { fail("\(path).operator", "expected a non-empty string") }
        var family: AddressFamily?
        if let text = string(fields, "family", at: path, required: false) {
            family = AddressFamily(rawValue: text)
            if family == nil { fail("\(path).family", "expected \"ipv4\" or \"ipv6\", found \"\(text)\"") }
        }
        let interface = string(fields, "interface", at: path, required: false)
        if let interface, !InterfaceName.isValid(interface) {
            fail("\(path).interface", "expected an interface name (1-15 bytes, no '/' or spaces), found \"\(interface)\"")
        }
        guard let expectValue = fields["expect"] else {
            fail("\(path).expect", "missing; expected an object with \"status\"")
            return nil
        }
        guard let expect = expectation(expectValue, at: "\(path).expect"), let name, let url, let host else { return nil }
        return ProbeSpec(name: name, url: url, operatorName: operatorName ?? host, family: family, interface: interface, expect: expect)
    }

    private mutating func expectation(_ value: JSONValue, at path: String) -> Expectation? {
        guard let fields = object(value, at: path, allowed: Self.expectKeys) else { return nil }
        var statuses: [Int] = []
        let statusValue = fields["status"]
        switch statusValue?.content {
        case nil:
            fail("\(path).status", "missing; expected an array of HTTP status codes (100-599)")
        case .array(let items)? where !items.isEmpty:
            for (index, item) in items.enumerated() {
                if case .number(let code) = item.content, code.rounded() == code, (100...599).contains(code) {
                    statuses.append(Int(code))
                } else {
                    fail("\(path).status[\(index)]", "expected an HTTP status code (100-599), found \(item.kindName == "a number" ? Self.describeNumber(item) : item.kindName)")
                }
            }
        case .some:
            let found = statusValue.map { $0.kindName == "an array" ? "an empty array" : $0.kindName } ?? "nothing"
            fail("\(path).status", "expected a non-empty array of HTTP status codes (100-599), found \(found)")
        }
        var body: BodyRule?
        if let bodyValue = fields["body"], let bodyFields = object(bodyValue, at: "\(path).body", allowed: Self.bodyKeys) {
            if bodyFields.count != 1 {
                fail("\(path).body", "expected exactly one of \"exact\", \"prefix\", \"contains\", found \(bodyFields.count)")
            } else if let (kind, text) = bodyFields.first.map({ ($0.key, $0.value) }) {
                if case .string(let literal) = text.content {
                    body = kind == "exact" ? .exact(literal) : kind == "prefix" ? .prefix(literal) : .contains(literal)
                } else {
                    fail("\(path).body.\(kind)", "expected a string, found \(text.kindName)")
                }
            }
        }
        var header: HeaderRule?
        if let headerValue = fields["success_header"], let headerFields = object(headerValue, at: "\(path).success_header", allowed: Self.headerKeys) {
            let name = string(headerFields, "name", at: "\(path).success_header", required: true)
            let value = string(headerFields, "value", at: "\(path).success_header", required: true)
            if let name, name.isEmpty || name.contains(":") || name.contains(" ") {
                fail("\(path).success_header.name", "expected an HTTP header name, found \"\(name)\"")
            }
            if let name, let value { header = HeaderRule(name: name, value: value) }
        }
        return statuses.isEmpty ? nil : Expectation(statuses: statuses, body: body, successHeader: header)
    }

    private static func describeNumber(_ value: JSONValue) -> String {
        if case .number(let number) = value.content { return show(number) }
        return value.kindName
    }
}
