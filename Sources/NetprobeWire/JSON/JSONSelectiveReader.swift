extension JSONReader {
    /// Reads `bytes` as strictly as `parse(_:limits:)` does (the byte and depth caps, UTF-8 only
    /// with a UTF-8 BOM skipped, RFC 8259's grammar, escapes and surrogate pairs, finite numbers,
    /// no key repeated in any object) but builds only what `selection` names: the rest is checked
    /// where it lies and never becomes a String, a Double or a dictionary. What is built is what
    /// `selection.filter` makes of the full reader's value, positions included.
    ///
    /// A document refused here is read again by the full reader, so the failure is the one
    /// `parse` gives, in the same words and at the same place, without a second account of
    /// lines, columns and paths to keep in step with it. Refusals are rare, and that read is
    /// linear and bounded too.
    public static func parse(_ bytes: UnsafeBufferPointer<UInt8>, limits: Limits,
                             selecting selection: JSONSelection) throws(Failure) -> JSONValue {
        var scanner = JSONSelectiveScanner(bytes: bytes, limits: limits, nodes: selection.nodes)
        do {
            return try scanner.document()
        } catch {
            return try parse(Array(bytes), limits: limits)
        }
    }
}

/// The selective reader's single pass: an explicit stack like the full reader's (time linear in
/// the input, depth bounded by the limit, not by the thread's stack), and nothing allocated for
/// what it skips beyond a few buffers per document. It answers only "valid or not"; see above for why.
struct JSONSelectiveScanner {
    struct Refused: Error {}

    /// The node of a value that is checked and not built.
    private static let skip = -1

    private struct Frame {
        var isObject: Bool
        /// The selection this container is read with (never `skip`: skipped values have no frame).
        var node: Int
        var start: JSONPosition
        /// Where this object's keys begin in `keys` and `decodedKeys`.
        var firstKey: Int
        var firstDecoded: Int
        /// The selection of the member or element being read.
        var valueNode: Int
        var items: [JSONValue] = []
        var members: [JSONKey: JSONValue] = [:]
        /// The key of the member being read, when it is built.
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
    private let limits: JSONReader.Limits
    private let nodes: [JSONSelection.Node]
    var index = 0
    private var line = 1
    private var lineStart = 0
    /// UTF-8 continuation bytes seen on this line: built values' columns count scalars, as the full reader's do.
    var continuationBytes = 0
    private var stack: [Frame] = []
    /// The containers open inside a skipped value: an object's first key in `keys`, -1 for an array.
    private var skipped: [Int] = []
    /// The keys of every open object, innermost last: a repeated one is looked for when its
    /// object closes, by comparing bytes where they lie instead of hashing Strings.
    private var keys: [KeySpan] = []
    private var decodedKeys: [UInt8] = []
    /// A string with an escape, decoded.
    var scratch: [UInt8] = []

    init(bytes: UnsafeBufferPointer<UInt8>, limits: JSONReader.Limits, nodes: [JSONSelection.Node]) {
        self.bytes = bytes
        self.limits = limits
        self.nodes = nodes
        keys.reserveCapacity(64)
        skipped.reserveCapacity(16)
    }

    private var position: JSONPosition {
        JSONPosition(line: line, column: index - lineStart - continuationBytes + 1, offset: index)
    }

    mutating func document() throws(Refused) -> JSONValue {
        guard bytes.count <= limits.maxBytes else { throw Refused() }
        if bytes.count >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF {
            index = 3
            lineStart = 3
        }
        // A UTF-16 or UTF-32 text (the full reader names it) fails on its first BOM or NUL byte here.
        // Only built containers are on `stack`; a skipped value is checked whole by skipValue.
        var node = 0
        var value: JSONValue?
        parsing: while true {
            skipSpace()
            guard index < bytes.count else { throw Refused() }
            if node == Self.skip {
                try skipValue()
                value = nil
            } else {
                let start = position
                switch bytes[index] {
                case UInt8(ascii: "["), UInt8(ascii: "{"):
                    let isObject = bytes[index] == UInt8(ascii: "{")
                    guard stack.count < limits.maxDepth else { throw Refused() }
                    index += 1
                    skipSpace()
                    if index < bytes.count, bytes[index] == (isObject ? UInt8(ascii: "}") : UInt8(ascii: "]")) {
                        index += 1
                        value = JSONValue(isObject ? .object([:]) : .array([]), at: start)
                    } else {
                        stack.append(Frame(isObject: isObject, node: node, start: start, firstKey: keys.count,
                                           firstDecoded: decodedKeys.count, valueNode: node))
                        if isObject { try key() }
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
                    throw Refused()
                }
            }
            // A value is complete: give it to its container (if built), closing every container that ends here.
            while !stack.isEmpty {
                let top = stack.count - 1
                if let built = value {
                    if !stack[top].isObject {
                        stack[top].items.append(built)
                    } else if let key = stack[top].key {
                        stack[top].members[key] = built
                    }
                }
                if try nextMember(isObject: stack[top].isObject, firstKey: stack[top].firstKey) {
                    node = stack[top].valueNode
                    continue parsing
                }
                let frame = stack.removeLast()
                if frame.isObject {
                    keys.removeSubrange(frame.firstKey...)
                    decodedKeys.removeSubrange(frame.firstDecoded...)
                }
                value = JSONValue(frame.isObject ? .object(frame.members) : .array(frame.items), at: frame.start)
            }
            break parsing
        }
        skipSpace()
        // The top is never skipped, so a complete document always has its value.
        guard index == bytes.count, let value else { throw Refused() }
        return value
    }

    /// After a member or element: true at a comma (the next key read, if an object), false at
    /// the container's end (its keys checked for a repeat, the closer passed).
    private mutating func nextMember(isObject: Bool, firstKey: Int) throws(Refused) -> Bool {
        skipSpace()
        guard index < bytes.count else { throw Refused() }
        if bytes[index] == UInt8(ascii: ",") {
            index += 1
            skipSpace()
            if isObject {
                try key()
            } else if index < bytes.count, bytes[index] == UInt8(ascii: "]") {
                throw Refused()
            }
            return true
        }
        guard bytes[index] == (isObject ? UInt8(ascii: "}") : UInt8(ascii: "]")) else { throw Refused() }
        index += 1
        if isObject, keys.count - firstKey > 1, repeatedKey(from: firstKey) { throw Refused() }
        return false
    }

    /// Checks the value at `index` without building any of it: what most of a record is. Its
    /// containers go on `skipped`, a stack of plain integers (depth counted with `stack`'s).
    private mutating func skipValue() throws(Refused) {
        let base = skipped.count
        scanning: while true {
            skipSpace()
            guard index < bytes.count else { throw Refused() }
            switch bytes[index] {
            case UInt8(ascii: "["), UInt8(ascii: "{"):
                let isObject = bytes[index] == UInt8(ascii: "{")
                guard stack.count + skipped.count < limits.maxDepth else { throw Refused() }
                index += 1
                skipSpace()
                if index < bytes.count, bytes[index] == (isObject ? UInt8(ascii: "}") : UInt8(ascii: "]")) {
                    index += 1
                } else {
                    // An object's first key's index, or -1 for an array.
                    skipped.append(isObject ? keys.count : -1)
                    if isObject { _ = try keySpan() }
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
                throw Refused()
            }
            while skipped.count > base {
                let firstKey = skipped[skipped.count - 1]
                if firstKey >= 0 {
                    if try nextObjectMember(firstKey: firstKey) { continue scanning }
                } else if try nextMember(isObject: false, firstKey: 0) {
                    continue scanning
                }
                skipped.removeLast()
            }
            return
        }
    }

    /// nextMember for a skipped object: its keys are read as spans only, and dropped at its end.
    private mutating func nextObjectMember(firstKey: Int) throws(Refused) -> Bool {
        skipSpace()
        guard index < bytes.count else { throw Refused() }
        if bytes[index] == UInt8(ascii: ",") {
            index += 1
            skipSpace()
            _ = try keySpan()
            return true
        }
        guard bytes[index] == UInt8(ascii: "}") else { throw Refused() }
        index += 1
        if keys.count - firstKey > 1, repeatedKey(from: firstKey) { throw Refused() }
        let firstDecoded = keys[firstKey...].first { $0.decoded }?.start
        keys.removeSubrange(firstKey...)
        if let firstDecoded { decodedKeys.removeSubrange(firstDecoded...) }
        return false
    }

    private mutating func skipSpace() {
        while index < bytes.count {
            switch bytes[index] {
            case 0x20, 0x09, 0x0D:
                index += 1
            case 0x0A:
                index += 1
                line += 1
                lineStart = index
                continuationBytes = 0
            default:
                return
            }
        }
    }

    /// An object's key and its colon: the key is kept for the repeated-key check, and decides
    /// whether (and with which selection) its value is built.
    private mutating func key() throws(Refused) {
        let span = try keySpan()
        // Only built objects are on the stack: the key decides whether its value is built too.
        let top = stack.count - 1
        let node = stack[top].node
        var valueNode = Self.skip
        var key: JSONKey?
        if nodes[node].whole {
            valueNode = node
            key = JSONKey(text(span.decoded ? nil : span.start..<(span.start + span.count)))
        } else {
            for (choice, print) in nodes[node].fingerprints.enumerated() where print == span.fingerprint && matches(span, nodes[node].names[choice]) {
                valueNode = nodes[node].children[choice]
                key = nodes[node].keys[choice]
                break
            }
        }
        stack[top].valueNode = valueNode
        stack[top].key = key
    }

    /// A key and its colon, kept for the repeated-key check of its object.
    private mutating func keySpan() throws(Refused) -> KeySpan {
        guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else { throw Refused() }
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
        skipSpace()
        guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else { throw Refused() }
        index += 1
        return span
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

    /// A string's text, from the input (`range`) or from `scratch` (it had an escape).
    private func text(_ range: Range<Int>?) -> String {
        guard let range else { return String(decoding: scratch, as: UTF8.self) }
        return String(decoding: UnsafeBufferPointer(rebasing: bytes[range]), as: UTF8.self)
    }

    private mutating func literal(_ word: StaticString) throws(Refused) {
        let count = word.utf8CodeUnitCount
        guard bytes.count - index >= count else { throw Refused() }
        for offset in 0..<count where bytes[index + offset] != word.utf8Start[offset] { throw Refused() }
        index += count
    }

    /// Checks a number; converts it only when it is built or might be beyond a double's range.
    private mutating func number(build: Bool) throws(Refused) -> Double {
        let start = index
        var at = index
        if bytes[at] == UInt8(ascii: "-") { at += 1 }
        guard at < bytes.count, isDigit(bytes[at]) else { throw Refused() }
        let integerStart = at
        if bytes[at] == UInt8(ascii: "0") {
            at += 1
            if at < bytes.count, isDigit(bytes[at]) { throw Refused() }  // a leading zero
        } else {
            while at < bytes.count, isDigit(bytes[at]) { at += 1 }
        }
        let integerDigits = bytes[integerStart] == UInt8(ascii: "0") ? 0 : at - integerStart
        if at < bytes.count, bytes[at] == UInt8(ascii: ".") {
            at += 1
            guard at < bytes.count, isDigit(bytes[at]) else { throw Refused() }
            while at < bytes.count, isDigit(bytes[at]) { at += 1 }
        }
        var exponent = 0
        if at < bytes.count, bytes[at] | 0x20 == UInt8(ascii: "e") {
            at += 1
            var negative = false
            if at < bytes.count, bytes[at] == UInt8(ascii: "+") || bytes[at] == UInt8(ascii: "-") {
                negative = bytes[at] == UInt8(ascii: "-")
                at += 1
            }
            guard at < bytes.count, isDigit(bytes[at]) else { throw Refused() }
            while at < bytes.count, isDigit(bytes[at]) {
                exponent = min(exponent * 10 + Int(bytes[at] - UInt8(ascii: "0")), 1_000_000)
                at += 1
            }
            if negative { exponent = -exponent }
        }
        index = at
        guard at - start <= JSONReader.maximumNumberLength else { throw Refused() }
        // Below 10^308 a number is finite (the largest double is 1.797...e308), and the value is
        // below 10^(integer digits + exponent): most numbers skipped are never converted.
        if !build, integerDigits + exponent <= 308 { return 0 }
        guard let number = Double(String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<at]), as: UTF8.self)),
              number.isFinite else { throw Refused() }
        return number
    }

    private func isDigit(_ byte: UInt8) -> Bool { byte >= 0x30 && byte <= 0x39 }
}
