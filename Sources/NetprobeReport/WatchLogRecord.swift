import NetprobeWire
import NetprobeVerdict
import NetprobeOutput
/// The part of one `watch --json` record that `netprobe report` summarises. Everything else in
/// the record (and every key added to watch after this reader was written: trigger, dns,
/// portal.expires_at) is ignored, so old readers keep reading new logs.
public struct WatchLogRecord: Sendable, Equatable {
    /// What the record says about watch itself, beyond the state (`event`).
    public enum Event: Sendable, Equatable {
        /// A watch began: whatever ran before it ended (cleanly only if a `stop` came first).
        case start
        /// The state (a change, an `expiring` warning, a record of an older watch without `event`,
        /// or an event this reader does not know).
        case state
        /// The heartbeat: the state still held, and watch ran, at this moment.
        case alive
        /// watch ended cleanly: the state held until here, and nothing is observed after.
        case stop
    }

    /// Milliseconds since the epoch, UTC.
    public var time: Int64
    public var event: Event = .state
    /// The writer's heartbeat in milliseconds (`heartbeat_seconds`); nil when it wrote none.
    public var heartbeatMs: Int64?
    public var overall: PathState
    /// The record's `paths`, in their order; empty when the record has none (older logs).
    public var paths: [PathEntry]
    /// The top-level probes' `timings.total_ms`, by `operator`: the probes of the overall answer.
    public var latencies: [Latency]
    /// The boot the writer ran in (`boot_id`) and the kernel's clocks since that boot at `time`,
    /// in milliseconds: with the time asleep (`boottime_seconds`) and without (`monotonic_seconds`).
    /// nil where the record has none (older watches) or a value this reader cannot use.
    public var bootID: String?
    public var boottimeMs: Int64?
    public var monotonicMs: Int64?
    /// The network of the overall answer (`network`): nil when the record names none (older
    /// watches, or a path whose gate said offline: no part known).
    public var network: NetworkEntry?

    /// A network as a record names it: its id, and what a person calls it.
    public struct NetworkEntry: Sendable, Equatable {
        public var id: String
        /// The SSID, else the domain, else the gateway's address, else the DHCP server; the id
        /// when the record gives none of them.
        public var name: String
    }

    public struct PathEntry: Sendable, Equatable {
        public var key: PathKey
        public var state: PathState
    }

    public struct Latency: Sendable, Equatable {
        public var operatorName: String
        public var totalMs: Double
    }

    /// The byte cap of one line: a watch record with 64 probes and their portal evidence is far
    /// below it; a line longer than this is refused (and skipped) without being parsed.
    public static let limits = JSONReader.Limits(maxBytes: 1 << 20, maxDepth: 32)

    public struct Invalid: Error, Sendable, Equatable, CustomStringConvertible {
        public var message: String
        public var description: String { message }
    }

    /// The members `record` reads: the reader checks the rest of the line without building it.
    static let selection: JSONSelection = {
        let state: [JSONKey: JSONSelection] = ["verdict": .whole, "reason": .whole, "portal": ["url": .whole], "fault": .whole]
        var path = state
        path["interface"] = .whole
        path["family"] = .whole
        var top = state
        top["timestamp"] = .whole
        top["event"] = .whole
        top["heartbeat_seconds"] = .whole
        top["boot_id"] = .whole
        top["boottime_seconds"] = .whole
        top["monotonic_seconds"] = .whole
        top["network"] = ["id": .whole, "ssid": .whole, "domain": .whole, "gateway_mac": .whole, "dhcp_server": .whole]
        top["paths"] = JSONSelection(path)
        top["probes"] = ["operator": .whole, "timings": ["total_ms": .whole]]
        return JSONSelection(top)
    }()

    public static func parse(_ line: [UInt8]) throws(Invalid) -> WatchLogRecord {
        try line.withUnsafeBufferPointer { (bytes) throws(Invalid) in try parse(bytes) }
    }

    public static func parse(_ line: UnsafeBufferPointer<UInt8>) throws(Invalid) -> WatchLogRecord {
        let value: JSONValue
        do {
            value = try JSONReader.parse(line, limits: limits, selecting: selection)
        } catch {
            throw Invalid(message: "not JSON: \(error.description)")
        }
        return try record(value)
    }

    static func record(_ value: JSONValue) throws(Invalid) -> WatchLogRecord {
        guard case .object(let members) = value.content else { throw Invalid(message: "not a JSON object") }
        guard case .string(let stamp)? = members["timestamp"]?.content else { throw Invalid(message: "no \"timestamp\" string") }
        guard let time = RFC3339.milliseconds(stamp) else {
            throw Invalid(message: "\"timestamp\" is not an RFC 3339 date-time: \(JSONPath.quoted(String(stamp.prefix(64))))")
        }
        let overall = try state(members, at: "$")
        var paths: [PathEntry] = []
        if let list = members["paths"] {
            guard case .array(let items) = list.content else { throw Invalid(message: "\"paths\" is not an array") }
            for (index, item) in items.enumerated() {
                let at = { JSONPath.element("$.paths", index) }
                guard case .object(let path) = item.content else { throw Invalid(message: "\(at()) is not an object") }
                let interface = try optionalString(path["interface"], at: JSONPath.member(at(), "interface"))
                let familyText = try optionalString(path["family"], at: JSONPath.member(at(), "family"))
                let family = familyText.flatMap(AddressFamily.init(rawValue:))
                if familyText != nil, family == nil {
                    throw Invalid(message: "\(JSONPath.member(at(), "family")) is not ipv4, ipv6 or null")
                }
                paths.append(PathEntry(key: PathKey(interface: interface, family: family), state: try state(path, at: at())))
            }
        }
        var event = Event.state
        if case .string(let name)? = members["event"]?.content {
            event = name == "start" ? .start : name == "alive" ? .alive : name == "stop" ? .stop : .state
        }
        var heartbeatMs: Int64?
        // A day at most, as watch allows: a larger number is no heartbeat this reader can use.
        if case .number(let seconds)? = members["heartbeat_seconds"]?.content, seconds > 0, seconds <= 86_400 {
            heartbeatMs = Int64((seconds * 1000).rounded())
        }
        // alive and stop repeat the evidence of a check already logged: their probes are no new samples.
        let samples = event == .alive || event == .stop ? [] : latencies(members["probes"])
        var record = WatchLogRecord(time: time, event: event, heartbeatMs: heartbeatMs, overall: overall, paths: paths, latencies: samples)
        // A UUID is 36 characters: anything much longer is no boot id (and not kept).
        if case .string(let id)? = members["boot_id"]?.content, !id.isEmpty, id.utf8.count <= 64 { record.bootID = id }
        record.boottimeMs = sinceBoot(members["boottime_seconds"])
        record.monotonicMs = sinceBoot(members["monotonic_seconds"])
        record.network = network(members["network"])
        return record
    }

    /// The longest id and name kept: an id is 12 hex digits, an SSID at most 32 bytes, a domain 253.
    static let networkIdLimit = 64
    static let networkNameLimit = 256

    /// The record's network, when it names one by a usable id; anything else is no network (a
    /// log without it, from an older watch, is read as before).
    private static func network(_ value: JSONValue?) -> NetworkEntry? {
        guard case .object(let fields)? = value?.content, case .string(let id)? = fields["id"]?.content,
              !id.isEmpty, id.utf8.count <= networkIdLimit else { return nil }
        let parts: [JSONKey] = ["ssid", "domain", "gateway_mac", "dhcp_server"]
        for key in parts {
            if case .string(let name)? = fields[key]?.content, !name.isEmpty, name.utf8.count <= networkNameLimit {
                return NetworkEntry(id: id, name: name)
            }
        }
        return NetworkEntry(id: id, name: id)
    }

    /// Seconds since boot, as milliseconds: a number from 0 to about 300 years, else nothing usable.
    private static func sinceBoot(_ value: JSONValue?) -> Int64? {
        guard case .number(let seconds)? = value?.content, seconds >= 0, seconds <= 1e10 else { return nil }
        return Int64((seconds * 1000).rounded())
    }

    private static func state(_ members: [JSONKey: JSONValue], at path: @autoclosure () -> String) throws(Invalid) -> PathState {
        guard case .string(let verdictText)? = members["verdict"]?.content, let verdict = Verdict(rawValue: verdictText) else {
            throw Invalid(message: "\(JSONPath.member(path(), "verdict")) is not online, portal or offline")
        }
        guard case .string(let reason)? = members["reason"]?.content else {
            throw Invalid(message: "\(JSONPath.member(path(), "reason")) is not a string")
        }
        var url: String?
        if let portal = members["portal"], case .object(let fields) = portal.content {
            url = try optionalString(fields["url"], at: JSONPath.member(JSONPath.member(path(), "portal"), "url"))
        }
        // A fault this reader does not know (a newer watch's) counts as none named.
        var fault: Fault?
        if verdict == .offline, case .string(let name)? = members["fault"]?.content { fault = Fault(rawValue: name) }
        return PathState(verdict: verdict, reason: reason, portalURL: verdict == .portal ? url : nil, fault: fault)
    }

    /// `path` is only spelled out for the message: a record that reads well builds none.
    private static func optionalString(_ value: JSONValue?, at path: @autoclosure () -> String) throws(Invalid) -> String? {
        switch value?.content {
        case nil, .null?: return nil
        case .string(let text)?: return text
        default: throw Invalid(message: "\(path()) is not a string or null")
        }
    }

    /// A day: no probe waits that long, and sums of absurd values (1e308) would not stay finite.
    static let maximumLatencyMs = 86_400_000.0

    /// Probe evidence is optional for the summary: a probe without an operator or a number is
    /// left out of the latency chart, never a reason to drop the record's states.
    private static func latencies(_ value: JSONValue?) -> [Latency] {
        guard let value, case .array(let probes) = value.content else { return [] }
        var out: [Latency] = []
        for probe in probes {
            guard case .object(let fields) = probe.content,
                  case .string(let operatorName)? = fields["operator"]?.content,
                  case .object(let timings)? = fields["timings"]?.content,
                  case .number(let total)? = timings["total_ms"]?.content, total >= 0, total <= maximumLatencyMs
            else { continue }
            out.append(Latency(operatorName: operatorName, totalMs: total))
        }
        return out
    }
}

/// What a path was doing: the state that holds from its record until the next one.
public struct PathState: Sendable, Equatable {
    public var verdict: Verdict
    public var reason: String
    /// Only while the verdict is portal.
    public var portalURL: String?
    /// Only while the verdict is offline: the hop that failed, when the record named one.
    public var fault: Fault?

    public init(verdict: Verdict, reason: String, portalURL: String? = nil, fault: Fault? = nil) {
        self.verdict = verdict
        self.reason = reason
        self.portalURL = portalURL
        self.fault = fault
    }
}
