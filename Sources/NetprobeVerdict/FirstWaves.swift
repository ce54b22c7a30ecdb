import NetprobeWire

/// Every first wave a probe set allows, numbered, so that a check can draw one uniformly at
/// random and a portal cannot tell which hosts it will ask.
///
/// A first wave is plain HTTP to as many operators as the quorum needs (one probe of each) and
/// one HTTPS probe of yet another operator, so it spans one operator more than the quorum: a
/// portal that lets the hosts of a quorum of operators through still intercepts one probe of
/// every wave, and that probe sends the rest. Drawn uniformly, a portal that lets exactly the
/// hosts of one wave through is fooled by that wave alone: one check in `count` (22 with the
/// built-in set). When no HTTPS probe of another operator exists (a small set), plain HTTP goes
/// to one operator more than the quorum (as many as there are), with any HTTPS probe; without
/// HTTPS, the wave is plain HTTP alone.
///
/// The waves are counted and picked by rank (sums of products of the operators' probe
/// counts), never listed: a 64-probe set has more than could be.
public struct FirstWaves: Sendable {
    /// Each operator with plain-HTTP probes, in the set's order, and those probes.
    private let httpOperators: [(name: String, probes: [ProbeSpec])]
    private let https: [ProbeSpec]
    /// How many plain-HTTP operators a wave asks.
    private let size: Int
    /// For each HTTPS probe, how many waves go with it: HTTP from the other operators only, or
    /// (no HTTPS probe of another operator exists) from any.
    private let perHTTPS: [Int]
    private let separate: Bool
    public let count: Int

    public init(_ specs: [ProbeSpec], quorum: Int) {
        var operators: [(name: String, probes: [ProbeSpec])] = []
        for spec in specs where !spec.isHTTPS {
            if let index = operators.firstIndex(where: { $0.name == spec.operatorName }) {
                operators[index].probes.append(spec)
            } else {
                operators.append((spec.operatorName, [spec]))
            }
        }
        let https = specs.filter(\.isHTTPS)
        let quorum = max(0, min(quorum, operators.count))
        httpOperators = operators
        self.https = https
        let separate = https.map { spec in
            Self.combinations(operators.filter { $0.name != spec.operatorName }.map(\.probes.count), choose: quorum)
        }
        if separate.contains(where: { $0 > 0 }) {
            size = quorum
            perHTTPS = separate
            self.separate = true
        } else {
            // No HTTPS of another operator: the operator beyond the quorum is one more over plain HTTP.
            let size = min(quorum + 1, operators.count)
            let any = Self.combinations(operators.map(\.probes.count), choose: size)
            self.size = size
            perHTTPS = https.map { _ in any }
            self.separate = false
        }
        count = https.isEmpty ? Self.combinations(operators.map(\.probes.count), choose: size)
                              : perHTTPS.reduce(0, Self.add)
    }

    /// The wave numbered `rank` (taken modulo `count`), in the probe set's order.
    public func wave(_ rank: Int) -> [ProbeSpec] {
        guard count > 0 else { return [] }
        var rank = ((rank % count) + count) % count
        guard !https.isEmpty else { return Self.unrank(httpOperators, size: size, rank: rank) }
        for (index, spec) in https.enumerated() {
            guard rank >= perHTTPS[index] else {
                let others = separate ? httpOperators.filter { $0.name != spec.operatorName } : httpOperators
                return Self.unrank(others, size: size, rank: rank) + [spec]
            }
            rank -= perHTTPS[index]
        }
        return []
    }

    /// Ways to choose `size` of the operators and one probe of each: the elementary symmetric
    /// sum of their probe counts (saturating: only an absurd set comes near).
    static func combinations(_ counts: [Int], choose size: Int) -> Int {
        guard size >= 0, size <= counts.count else { return 0 }
        // ways[k]: ways to choose k of the operators seen so far.
        var ways = [1] + Array(repeating: 0, count: size)
        for count in counts {
            for chosen in stride(from: size, through: 1, by: -1) {
                ways[chosen] = add(ways[chosen], multiply(ways[chosen - 1], count))
            }
        }
        return ways[size]
    }

    /// The `rank`-th way to choose `size` operators and one plain-HTTP probe of each.
    private static func unrank(_ operators: [(name: String, probes: [ProbeSpec])], size: Int, rank: Int) -> [ProbeSpec] {
        var chosen: [ProbeSpec] = []
        var rank = rank, size = size
        for (index, entry) in operators.enumerated() where size > 0 {
            let rest = combinations(operators[(index + 1)...].map(\.probes.count), choose: size - 1)
            let with = multiply(rest, entry.probes.count)
            if rank < with {
                let pick = rest > 0 ? min(rank / rest, entry.probes.count - 1) : 0
                chosen.append(entry.probes[pick])
                rank = rest > 0 ? rank % rest : 0
                size -= 1
            } else {
                rank -= with
            }
        }
        return chosen
    }

    private static func add(_ a: Int, _ b: Int) -> Int {
        let (sum, overflow) = a.addingReportingOverflow(b)
        return overflow ? .max : sum
    }

    private static func multiply(_ a: Int, _ b: Int) -> Int {
        let (product, overflow) = a.multipliedReportingOverflow(by: b)
        return overflow ? .max : product
    }
}
