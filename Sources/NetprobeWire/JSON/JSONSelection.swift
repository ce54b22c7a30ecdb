/// Which members of a document `JSONReader.parse(_:limits:selecting:)` builds. A reader that
/// needs a dozen keys of a 3 KB record should not pay for a dictionary, a string and a hash of
/// every other one; it still gets the whole text checked, as strictly as `parse` checks it.
///
/// Applied to an object, a selection keeps only the members it names, each read with its own
/// selection. Applied to an array, it keeps every element, each read with the same selection
/// (so `"probes": ["operator": .whole]` keeps each probe's operator). A string, number, boolean
/// or null is kept whatever the selection: a reader asking for `timings.total_ms` learns that
/// `timings` was a string, not that it was absent. `.whole` keeps a value with everything in it.
public struct JSONSelection: Sendable, ExpressibleByDictionaryLiteral {
    /// The selection flattened into one array (node 0 is the top), so the reader follows plain
    /// indices instead of copying nested values at every member.
    struct Node: Sendable {
        var whole: Bool
        /// The selected keys' UTF-8 bytes, compared with a key's bytes as read (no String built).
        var names: [[UInt8]] = []
        /// Their fingerprints (see JSONReader's KeySpan), so most keys are told apart by one comparison.
        var fingerprints: [UInt64] = []
        var keys: [JSONKey] = []
        /// The node of each selected key's value.
        var children: [Int] = []
    }

    let nodes: [Node]

    /// Everything, to any depth.
    public static let whole = JSONSelection(nodes: [Node(whole: true)])

    private init(nodes: [Node]) {
        self.nodes = nodes
    }

    public init(_ members: [JSONKey: JSONSelection]) {
        var nodes = [Node(whole: false)]
        for (key, selection) in members.sorted(by: { $0.key < $1.key }) {
            let offset = nodes.count
            for var node in selection.nodes {
                node.children = node.children.map { $0 + offset }
                nodes.append(node)
            }
            let name = Array(key.text.utf8)
            nodes[0].names.append(name)
            nodes[0].fingerprints.append(name.withUnsafeBufferPointer { JSONReader.fingerprint($0) })
            nodes[0].keys.append(key)
            nodes[0].children.append(offset)
        }
        self.nodes = nodes
    }

    public init(dictionaryLiteral elements: (JSONKey, JSONSelection)...) {
        self.init(Dictionary(elements, uniquingKeysWith: { _, last in last }))
    }

    /// What reading a document with this selection builds, from the whole `value` of it: the
    /// reference the selective mode is checked against (tests, the fuzz target), and what a
    /// refused text read again whole would be cut to.
    public func filter(_ value: JSONValue) -> JSONValue {
        filter(value, node: 0)
    }

    private func filter(_ value: JSONValue, node: Int) -> JSONValue {
        let selection = nodes[node]
        if selection.whole { return value }
        switch value.content {
        case .array(let items):
            return JSONValue(.array(items.map { filter($0, node: node) }), at: value.position)
        case .object(let members):
            var kept: [JSONKey: JSONValue] = [:]
            for (index, key) in selection.keys.enumerated() {
                if let member = members[key] { kept[key] = filter(member, node: selection.children[index]) }
            }
            return JSONValue(.object(kept), at: value.position)
        default:
            return value
        }
    }
}
