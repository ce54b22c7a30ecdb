/// The one JSON reader netprobe has: probes.json, Captive Portal API answers, watch logs.
/// Strict RFC 8259 on hostile input: UTF-8 only (a UTF-8 BOM is skipped), no trailing commas,
/// no duplicate keys (readers that take the first and readers that take the last would
/// disagree about the same file), finite numbers only, a byte cap and a depth cap. One pass
/// with an explicit stack instead of recursion, so time is linear in the input and depth
/// cannot exhaust the thread's stack. Every value keeps its line and column, and every
/// failure names its line, column and JSON path.
///
/// One scanner, two modes. `parse(_:limits:)` builds the whole value. `parse(_:limits:selecting:)`
/// builds only the members a `JSONSelection` names and checks the rest where it lies, with the
/// same grammar (JSONTokens.swift) and the same caps, without making a String, a Double or a
/// dictionary of it: what `netprobe report` needs of a 3 KB watch record is a dozen keys.
public struct JSONReader {
    public struct Limits: Sendable {
        public var maxBytes: Int
        /// Arrays and objects nested deeper than this are refused; netprobe's documents need 5.
        public var maxDepth: Int

        public init(maxBytes: Int, maxDepth: Int = 64) {
            self.maxBytes = maxBytes
            self.maxDepth = maxDepth
        }
    }

    public struct Failure: Error, Sendable, Equatable, CustomStringConvertible {
        public var message: String
        public var position: JSONPosition
        /// Where in the document the reader was, e.g. `$.probes[2].name` for a repeated key.
        public var path: String

        public var description: String { "\(message) at \(path) (\(position))" }
    }

    /// A number longer than this is refused: no real document needs it, and converting a
    /// megabyte of digits is work an attacker should not get for free.
    static let maximumNumberLength = 512

    public static func parse(_ bytes: [UInt8], limits: Limits) throws(Failure) -> JSONValue {
        try bytes.withUnsafeBufferPointer { (buffer) throws(Failure) in
            var reader = JSONReader(bytes: buffer, limits: limits, nodes: [])
            return try reader.document()
        }
    }

    /// Reads `bytes` as strictly as `parse(_:limits:)` does but builds only what `selection`
    /// names; what is built is what `selection.filter` makes of the whole value, positions included.
    ///
    /// A text refused in this mode is read again with everything selected, so the failure is the
    /// one `parse(_:limits:)` gives, in the same words and at the same place: a failure met inside
    /// a skipped value cannot name its JSON path (skipped containers keep no keys as text and
    /// count no elements), and a repeated key in an object not built whole is found when the
    /// object ends, not at the key. Refusals are rare, and that read is linear and bounded too.
    public static func parse(_ bytes: UnsafeBufferPointer<UInt8>, limits: Limits,
                             selecting selection: JSONSelection) throws(Failure) -> JSONValue {
        var reader = JSONReader(bytes: bytes, limits: limits, nodes: selection.nodes)
        do {
            return try reader.document()
        } catch {
            // Selecting everything is the first mode already: its failure is the one to give.
            if selection.nodes[0].whole { throw error }
            var whole = JSONReader(bytes: bytes, limits: limits, nodes: [])
            return selection.filter(try whole.document())
        }
    }

    /// The node of a value that is checked and not built.
    private static let skip = -1

    /// An open array or object that is being built (a skipped one is an entry in `skipped`).
    private struct Frame {
        var isObject: Bool
        /// The selection this container is read with (never `skip`).
        var node: Int
        var start: JSONPosition
        /// Where this object's keys begin in `keys` (an object not built whole keeps them there).
        var firstKey: Int
        /// The selection of the member or element being read.
        var valueNode: Int
        var items: [JSONValue] = []
        var members: [JSONKey: JSONValue] = [:]
        /// The key of the member being read, when its value is built.
        var key: JSONKey?
    }

    /// Where a key's text is: in the input itself, or (when it had an escape) in `decodedKeys`.
    private struct KeySpan {
        var start: Int
        var count: Int
        var decoded: Bool
        /// Its length and first bytes: two keys that differ here are not compared further.
        var fingerprint: UInt64
    }

    let bytes: UnsafeBufferPointer<UInt8>
    private let limits: Limits
    /// The selection, flattened (see JSONSelection.Node); node 0 is the document's. Empty when
    /// everything is built: `parse(_:limits:)` then sets up no selection at all.
    private let nodes: [JSONSelection.Node]
    var index = 0
    var line = 1
    var lineStart = 0
    /// UTF-8 continuation bytes seen on this line, so columns count scalars, not bytes.
    var continuationBytes = 0
    private var stack: [Frame] = []
    /// The containers open inside a skipped value: an object's first key in `keys`, -1 for an array.
    private var skipped: [Int] = []
    /// The keys of every open object not built whole, innermost last: a repeated one is looked
    /// for when its object closes, by comparing bytes where they lie instead of hashing Strings.
    private var keys: [KeySpan] = []
    private var decodedKeys: [UInt8] = []
    /// A string with an escape, decoded.
    var scratch: [UInt8] = []

    init(bytes: UnsafeBufferPointer<UInt8>, limits: Limits, nodes: [JSONSelection.Node]) {
        self.bytes = bytes
        self.limits = limits
        self.nodes = nodes
        if !nodes.isEmpty, !nodes[0].whole {
            keys.reserveCapacity(64)
            skipped.reserveCapacity(16)
        }
    }

    /// `$` plus the key or index of every open container; `element` adds the one being read.
    /// Only built containers are named: in selective mode a failure's path is not the one to
    /// give, and `parse(_:limits:selecting:)` reads the text again to find it.
    func path(element: Bool = true) -> String {
        var path = JSONPath.root
        for (level, frame) in stack.enumerated() where element || level < stack.count - 1 {
            path = frame.isObject ? JSONPath.member(path, frame.key?.text ?? "") : JSONPath.element(path, frame.items.count)
        }
        return path
    }

    mutating func document() throws(Failure) -> JSONValue {
        guard bytes.count <= limits.maxBytes else { throw failure("the text is larger than \(limits.maxBytes) bytes") }
        try checkEncoding()
        var node = 0
        // The value just read. A skipped one leaves it as it was: it goes nowhere, since only a
        // member of an object built in part is skipped, and that member has no key to go under.
        var value = JSONValue(.null, at: position)
        parsing: while true {
            skipSpace()
            guard index < bytes.count else { throw failure("unexpected end of input; expected a value") }
            if node == Self.skip {
                try skipValue()
            } else {
                let start = position
                switch bytes[index] {
                case UInt8(ascii: "["), UInt8(ascii: "{"):
                    let isObject = bytes[index] == UInt8(ascii: "{")
                    guard stack.count < limits.maxDepth else { throw tooDeep() }
                    index += 1
                    skipSpace()
                    if index < bytes.count, bytes[index] == (isObject ? UInt8(ascii: "}") : UInt8(ascii: "]")) {
                        index += 1
                        value = JSONValue(isObject ? .object([:]) : .array([]), at: start)
                    } else {
                        stack.append(Frame(isObject: isObject, node: node, start: start, firstKey: keys.count, valueNode: node))
                        if isObject { try key(afterComma: false) }
                        node = stack[stack.count - 1].valueNode
                        continue parsing
                    }
                case UInt8(ascii: "\""):
                    // Two steps: `text(try string())` would read `scratch` as it was before the string.
                    let span = try string(decode: true)
                    value = JSONValue(.string(text(span)), at: start)
                case UInt8(ascii: "t"):
                    try literal("true")
                    value = JSONValue(.bool(true), at: start)
                case UInt8(ascii: "f"):
                    try literal("false")
                    value = JSONValue(.bool(false), at: start)
                case UInt8(ascii: "n"):
                    try literal("null")
                    value = JSONValue(.null, at: start)
                case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
                    value = JSONValue(.number(try number(build: true)), at: start)
                default:
                    throw try unexpected("expected a value")
                }
            }
            // A value is complete: give it to its container (if built), closing every container that ends here.
            while !stack.isEmpty {
                let top = stack.count - 1
                if !stack[top].isObject {
                    stack[top].items.append(value)
                } else if let key = stack[top].key {
                    stack[top].members[key] = value
                }
                if try separator(isObject: stack[top].isObject) {
                    if stack[top].isObject { try key(afterComma: true) }
                    node = stack[top].valueNode
                    continue parsing
                }
                let frame = stack.removeLast()
                if frame.isObject, !builtWhole(frame.node) { try dropKeys(from: frame.firstKey) }
                value = JSONValue(frame.isObject ? .object(frame.members) : .array(frame.items), at: frame.start)
            }
            break parsing
        }
        skipSpace()
        if index < bytes.count { throw try unexpected("expected nothing after the JSON value") }
        return value
    }

    /// Checks the value at `index` without building any of it. Its containers go on `skipped`,
    /// a stack of plain integers (depth counted with `stack`'s).
    private mutating func skipValue() throws(Failure) {
        let base = skipped.count
        scanning: while true {
            skipSpace()
            guard index < bytes.count else { throw failure("unexpected end of input; expected a value") }
            switch bytes[index] {
            case UInt8(ascii: "["), UInt8(ascii: "{"):
                let isObject = bytes[index] == UInt8(ascii: "{")
                guard stack.count + skipped.count < limits.maxDepth else { throw tooDeep() }
                index += 1
                skipSpace()
                if index < bytes.count, bytes[index] == (isObject ? UInt8(ascii: "}") : UInt8(ascii: "]")) {
                    index += 1
                } else {
                    skipped.append(isObject ? keys.count : -1)
                    if isObject { _ = try keySpan(afterComma: false) }
                    continue scanning
                }
            case UInt8(ascii: "\""):
                _ = try string(decode: false)
            case UInt8(ascii: "t"):
                try literal("true")
            case UInt8(ascii: "f"):
                try literal("false")
            case UInt8(ascii: "n"):
                try literal("null")
            case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
                _ = try number(build: false)
            default:
                throw try unexpected("expected a value")
            }
            while skipped.count > base {
                let firstKey = skipped[skipped.count - 1]
                if try separator(isObject: firstKey >= 0) {
                    if firstKey >= 0 { _ = try keySpan(afterComma: true) }
                    continue scanning
                }
                if firstKey >= 0 { try dropKeys(from: firstKey) }
                skipped.removeLast()
            }
            return
        }
    }

    /// Whether the container or member read with `node` is built with everything in it.
    private func builtWhole(_ node: Int) -> Bool { nodes.isEmpty || nodes[node].whole }

    /// After a member or element: true at a comma (passed, with the space after it), false at
    /// the container's closer (passed).
    @inline(__always)
    private mutating func separator(isObject: Bool) throws(Failure) -> Bool {
        skipSpace()
        if index < bytes.count, bytes[index] == UInt8(ascii: ",") {
            index += 1
            skipSpace()
            if !isObject, index < bytes.count, bytes[index] == UInt8(ascii: "]") {
                throw failure("a trailing comma before ']'", element: false)
            }
            return true
        }
        guard index < bytes.count, bytes[index] == (isObject ? UInt8(ascii: "}") : UInt8(ascii: "]")) else {
            throw try unexpected(isObject ? "expected ',' or '}'" : "expected ',' or ']'", element: false)
        }
        index += 1
        return false
    }

    /// A key of a built object and its colon. In an object built whole, a key already seen is
    /// refused here, by the dictionary its members go into (the same code units: see JSONKey).
    /// In an object built in part, the key is kept for the repeated-key check at the object's
    /// end, and decides whether (and with which selection) its value is built.
    private mutating func key(afterComma: Bool) throws(Failure) {
        let top = stack.count - 1
        let node = stack[top].node
        guard builtWhole(node) else {
            let span = try keySpan(afterComma: afterComma)
            var valueNode = Self.skip
            var key: JSONKey?
            for (choice, print) in nodes[node].fingerprints.enumerated() where print == span.fingerprint && matches(span, nodes[node].names[choice]) {
                valueNode = nodes[node].children[choice]
                key = nodes[node].keys[choice]
                break
            }
            stack[top].valueNode = valueNode
            stack[top].key = key
            return
        }
        try keyOpening(afterComma: afterComma)
        let keyPosition = position
        // Two steps, as for a string value: the text may be in `scratch`.
        let span = try string(decode: true)
        let key = JSONKey(text(span))
        if stack[top].members[key] != nil {
            throw Failure(message: "duplicate key \(JSONPath.quoted(key.text)) (each key may appear once in an object)",
                          position: keyPosition, path: JSONPath.member(path(element: false), key.text))
        }
        stack[top].key = key
        try colon()
    }

    /// A key and its colon, kept as a span for the repeated-key check of its object.
    private mutating func keySpan(afterComma: Bool) throws(Failure) -> KeySpan {
        try keyOpening(afterComma: afterComma)
        let span: KeySpan
        if let range = try string(decode: true) {
            span = KeySpan(start: range.lowerBound, count: range.count, decoded: false,
                           fingerprint: Self.fingerprint(UnsafeBufferPointer(rebasing: bytes[range])))
        } else {
            span = KeySpan(start: decodedKeys.count, count: scratch.count, decoded: true,
                           fingerprint: scratch.withUnsafeBufferPointer { Self.fingerprint($0) })
            decodedKeys.append(contentsOf: scratch)
        }
        keys.append(span)
        try colon()
        return span
    }

    /// The quote that opens a key, or the failure for what stands there instead.
    @inline(__always)
    private func keyOpening(afterComma: Bool) throws(Failure) {
        guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else { throw try notAKey(afterComma: afterComma) }
    }

    @inline(never)
    private func notAKey(afterComma: Bool) throws(Failure) -> Failure {
        if afterComma, index < bytes.count, bytes[index] == UInt8(ascii: "}") {
            return failure("a trailing comma before '}'", element: false)
        }
        return try unexpected("expected a string key", element: false)
    }

    @inline(__always)
    private mutating func colon() throws(Failure) {
        skipSpace()
        guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else { throw try unexpected("expected ':' after the key") }
        index += 1
    }

    static func fingerprint(_ text: UnsafeBufferPointer<UInt8>) -> UInt64 {
        var print = UInt64(truncatingIfNeeded: text.count) << 56
        for offset in 0..<min(text.count, 7) { print |= UInt64(text[offset]) << (offset * 8) }
        return print
    }

    private func matches(_ span: KeySpan, _ name: [UInt8]) -> Bool {
        if span.decoded { return decodedKeys[span.start..<(span.start + span.count)].elementsEqual(name) }
        return bytes[span.start..<(span.start + span.count)].elementsEqual(name)
    }

    /// At the end of an object whose keys are kept from `first` on: refuses a repeated one, and
    /// lets the spans (and the text of those that had an escape) go.
    private mutating func dropKeys(from first: Int) throws(Failure) {
        if keys.count - first > 1, repeatedKey(from: first) { throw failure("a key repeated in this object") }
        if !decodedKeys.isEmpty, let decoded = keys[first...].first(where: { $0.decoded })?.start {
            decodedKeys.removeSubrange(decoded...)
        }
        keys.removeSubrange(first...)
    }

    /// Whether two of the keys from `first` on (one object's) have the same bytes. A record's
    /// objects have a few dozen keys: comparing each pair (most differ in length) is cheaper
    /// than hashing them. A larger object is sorted instead, so time stays O(n log n).
    private func repeatedKey(from first: Int) -> Bool {
        decodedKeys.withUnsafeBufferPointer { decoded in
            func text(_ key: KeySpan) -> UnsafeBufferPointer<UInt8> {
                UnsafeBufferPointer(rebasing: (key.decoded ? decoded : bytes)[key.start..<(key.start + key.count)])
            }
            if keys.count - first <= 32 {
                for one in first..<(keys.count - 1) {
                    let print = keys[one].fingerprint
                    for other in (one + 1)..<keys.count where keys[other].fingerprint == print && keys[other].count == keys[one].count {
                        if text(keys[one]).elementsEqual(text(keys[other])) { return true }
                    }
                }
                return false
            }
            let order = (first..<keys.count).sorted { text(keys[$0]).lexicographicallyPrecedes(text(keys[$1])) }
            return zip(order, order.dropFirst()).contains { text(keys[$0]).elementsEqual(text(keys[$1])) }
        }
    }

    @inline(never)
    private func tooDeep() -> Failure {
        failure("arrays and objects nested deeper than \(limits.maxDepth) levels")
    }
}
