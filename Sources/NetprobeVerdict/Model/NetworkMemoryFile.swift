#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import NetprobeWire

/// `NetworkMemory` as the file watch keeps it in its state directory across restarts:
/// `{"networks":[{...}, ...],"version":1}`, one object per network, oldest `last_seen` first,
/// keys sorted, strings through the JSON writer's escaper.
///
/// The file is read as hostile input, like every file netprobe reads: anyone who could write
/// the state directory, a full disk or an older or newer netprobe may have left anything there.
/// Nothing in it decides a verdict (see `NetworkMemory`), but a bad entry could send a
/// terminal escape or a `javascript:` URL on to a login-URL line, so each entry is checked
/// whole and a bad one is skipped alone. A file that is not what this version writes at all
/// (too large, not JSON, another version) is ignored whole: a watch starts from nothing, which
/// costs one full check per network, and says why in `problem`.
public enum NetworkMemoryFile {
    public static let fileName = "networks.json"
    /// 64 networks of ordinary size take about 25 KB; a larger file is ignored whole.
    public static let maxBytes = 65_536
    public static let version = 1
    /// The longest string an entry may carry (a login URL is the longest real one).
    public static let maxStringBytes = 2048
    /// At most this many intercepted operators per network (a probe set has a handful).
    public static let maxIntercepted = 16
    /// An open streak beyond this is no count a watch could have reached.
    public static let maxOpenStreak = 1_000_000_000

    public struct Loaded: Sendable, Equatable {
        public var memory: NetworkMemory
        /// Why the file, or some of its networks, were not taken; nil when all of it was.
        public var problem: String?

        public init(memory: NetworkMemory = NetworkMemory(), problem: String? = nil) {
            self.memory = memory
            self.problem = problem
        }
    }

    /// Never throws, never traps: whatever `bytes` are, a memory (perhaps empty) and what was
    /// wrong with them.
    public static func decode(_ bytes: [UInt8]) -> Loaded {
        guard bytes.count <= maxBytes else { return ignored("larger than \(maxBytes) bytes") }
        let document: JSONValue
        do {
            // Depth 4 is the file's own (object, networks, entry, intercepted); a little room, no more.
            document = try JSONReader.parse(bytes, limits: JSONReader.Limits(maxBytes: maxBytes, maxDepth: 8))
        } catch {
            // The reader's message can quote a key of the file: a few words of it are enough.
            let message = error.message.count > 120 ? error.message.prefix(120) + "…" : error.message
            return ignored("not valid JSON: \(message) (\(error.position))")
        }
        guard case .object(let top) = document.content else { return ignored("not a JSON object") }
        guard let versionValue = top["version"] else { return ignored("no version") }
        guard case .number(let number) = versionValue.content, number == Double(version) else {
            return ignored("version \(shown(versionValue)), not \(version)")
        }
        guard let networks = top["networks"] else { return ignored("no networks") }
        guard case .array(let items) = networks.content else { return ignored("networks is \(networks.kindName), not an array") }
        let entries = items.compactMap(entry)
        let memory = NetworkMemory(entries)
        var problems: [String] = []
        if entries.count < items.count { problems.append(counted(items.count - entries.count, "network") + " not valid: skipped") }
        let distinct = Set(entries.map(\.id)).count
        if distinct < entries.count { problems.append(counted(entries.count - distinct, "repeated network") + ": the newest kept") }
        if distinct > NetworkMemory.maxNetworks {
            problems.append("more than \(NetworkMemory.maxNetworks) networks: the \(distinct - NetworkMemory.maxNetworks) seen least recently forgotten")
        }
        return Loaded(memory: memory, problem: problems.isEmpty ? nil : problems.joined(separator: "; "))
    }

    /// At most `maxBytes`, whatever the memory holds: the networks seen least recently are left
    /// out until the rest fit. What it writes is what `decode` takes back: a name or URL that
    /// `decode` would refuse is written as null, an operator name it would refuse is left out,
    /// and a network whose id or last-seen time cannot be written is left out.
    public static func encode(_ memory: NetworkMemory) -> [UInt8] {
        let head = Array("{\"networks\":[".utf8), tail = Array("],\"version\":\(version)}\n".utf8)
        var budget = maxBytes - head.count - tail.count
        var kept: [[UInt8]] = []
        // Newest first, until the next one would not fit; then written oldest first.
        for entry in memory.entries.reversed() {
            guard let object = object(entry) else { continue }
            let bytes = Array(object.rendered().utf8)
            let cost = bytes.count + (kept.isEmpty ? 0 : 1)
            guard cost <= budget else { break }
            budget -= cost
            kept.append(bytes)
        }
        var out = head
        for (index, bytes) in kept.reversed().enumerated() {
            if index > 0 { out.append(UInt8(ascii: ",")) }
            out += bytes
        }
        return out + tail
    }

    // MARK: Reading one entry

    private static func entry(_ value: JSONValue) -> NetworkMemory.Entry? {
        guard case .object(let fields) = value.content,
              case .string(let id)? = fields["id"]?.content, isID(id),
              case .string(let seenText)? = fields["last_seen"]?.content, let lastSeen = date(seenText),
              case .number(let streak)? = fields["open_streak"]?.content,
              streak >= 0, streak <= Double(maxOpenStreak), streak.rounded() == streak,
              case .array(let interceptedValues)? = fields["intercepted"]?.content, interceptedValues.count <= maxIntercepted
        else { return nil }
        var entry = NetworkMemory.Entry(id: id, lastSeen: lastSeen, openStreak: Int(streak))
        for item in interceptedValues {
            guard case .string(let name) = item.content, isOperator(name) else { return nil }
            entry.intercepted.append(name)
        }
        // Each optional key: absent and null mean "not known"; any other value must be right.
        guard let name = optional(fields["name"], { isText($0) ? $0 : nil }),
              let lastProven = optional(fields["last_proven"], date),
              let verdict = optional(fields["verdict"], Verdict.init(rawValue:)),
              let reason = optional(fields["reason"], Reason.init(rawValue:)),
              let portalURL = optional(fields["portal_url"], url),
              let portalAPI = optional(fields["portal_api"], url),
              let informPortalAPI = optional(fields["inform_portal_api"], url)
        else { return nil }
        entry.name = name
        entry.lastProven = lastProven
        entry.verdict = verdict
        entry.reason = reason
        entry.portalURL = portalURL
        entry.portalAPI = portalAPI
        entry.informPortalAPI = informPortalAPI
        switch fields["inform_answers"]?.content {
        case nil, .null?: entry.informAnswers = nil
        case .bool(let answers)?: entry.informAnswers = answers
        default: return nil
        }
        return entry
    }

    /// `.some(nil)` for an absent or null value, `.some(x)` for a string `read` takes, nil
    /// (the entry is bad) for anything else.
    private static func optional<T>(_ value: JSONValue?, _ read: (String) -> T?) -> T?? {
        switch value?.content {
        case nil, .null?: return .some(nil)
        case .string(let text)?: return read(text).map { .some($0) }
        default: return nil
        }
    }

    /// `NetworkIdentity.id`'s form: 12 lower-case hex digits.
    static func isID(_ text: String) -> Bool {
        text.utf8.count == 12 && text.utf8.allSatisfy { ($0 >= 0x30 && $0 <= 0x39) || ($0 >= 0x61 && $0 <= 0x66) }
    }

    /// Short enough, and no control character (C0, DEL, C1) a terminal or a log could act on.
    static func isText(_ text: String) -> Bool {
        text.utf8.count <= maxStringBytes && !text.unicodeScalars.contains { $0.properties.generalCategory == .control }
    }

    static func isOperator(_ text: String) -> Bool { !text.isEmpty && isText(text) }

    /// An absolute http(s) URL as a browser reads it: no space, control or invisible character.
    static func url(_ text: String) -> String? {
        text.utf8.count <= maxStringBytes && URLRules.httpHost(text, strict: false) != nil ? text : nil
    }

    /// The instant of an RFC 3339 text, as the middle of its millisecond: `Timestamp.iso8601`
    /// writes the millisecond it falls in, and `ms / 1000` can fall a hair short of it, which
    /// would move every time read and written again back by one millisecond.
    static func date(_ text: String) -> Date? {
        RFC3339.milliseconds(text).map { Date(timeIntervalSince1970: (Double($0) + 0.5) / 1000) }
    }

    private static func ignored(_ why: String) -> Loaded { Loaded(problem: why + ": ignored") }

    private static func counted(_ count: Int, _ noun: String) -> String { "\(count) \(noun)\(count == 1 ? "" : "s")" }

    /// A version as the file gave it, in few characters whatever it was.
    private static func shown(_ value: JSONValue) -> String {
        switch value.content {
        case .number(let number): return ConfigParser.show(number)
        case .string(let text): return JSONPath.quoted(String(text.prefix(16)))
        default: return value.kindName
        }
    }

    // MARK: Writing one entry

    private static func object(_ entry: NetworkMemory.Entry) -> JSONOut? {
        guard isID(entry.id), let lastSeen = stamp(entry.lastSeen) else { return nil }
        return .object([
            "id": .string(entry.id),
            "inform_answers": .bool(entry.informAnswers),
            "inform_portal_api": .string(entry.informPortalAPI.flatMap(url)),
            "intercepted": .strings(Array(entry.intercepted.filter(isOperator).prefix(maxIntercepted))),
            "last_proven": .string(entry.lastProven.flatMap(stamp)),
            "last_seen": .string(lastSeen),
            "name": .string(entry.name.flatMap { isText($0) ? $0 : nil }),
            "open_streak": .int(min(max(entry.openStreak, 0), maxOpenStreak)),
            "portal_api": .string(entry.portalAPI.flatMap(url)),
            "portal_url": .string(entry.portalURL.flatMap(url)),
            "reason": .string(entry.reason?.rawValue),
            "verdict": .string(entry.verdict?.rawValue),
        ])
    }

    /// RFC 3339 with milliseconds, or nil for an instant it cannot name (years 0000 to 9999).
    static func stamp(_ date: Date) -> String? {
        let seconds = date.timeIntervalSince1970
        // Checked before formatting: the formatter converts to an integer, which traps on NaN.
        guard seconds.isFinite, abs(seconds) < 400_000_000_000 else { return nil }
        let text = Timestamp.iso8601(date)
        return RFC3339.milliseconds(text) == nil ? nil : text
    }
}
