/// The probe set: what to fetch and what a correct answer looks like.
/// Parsed and validated by `ConfigParser`; the default is `probes.json` (see `DefaultProbes`).
public enum BodyRule: Sendable, Equatable {
    case exact(String)
    case prefix(String)
    case contains(String)

    /// Compared as UTF-8 bytes, as NetworkManager compares its check's answer: no Unicode
    /// normalisation, and the body need not be valid UTF-8. (Comparing as `String`s decoded
    /// up to 64 KiB of body first, and `contains` went through the standard library's generic
    /// string search, costly even for one probe's "Success".)
    public func matches(_ body: [UInt8]) -> Bool {
        switch self {
        case .exact(let text): return body.elementsEqual(text.utf8)
        case .prefix(let text): return body.starts(with: text.utf8)
        case .contains(let text): return Self.find(Array(text.utf8), in: body)
        }
    }

    /// Knuth-Morris-Pratt: linear in the body whatever the two hold, so no body the network
    /// sends can make the search quadratic against a long expected text.
    static func find(_ needle: [UInt8], in haystack: [UInt8]) -> Bool {
        guard !needle.isEmpty else { return true }
        guard needle.count <= haystack.count else { return false }
        // fallback[i]: the length of the longest proper prefix of needle[0...i] that is also its suffix.
        var fallback = [Int](repeating: 0, count: needle.count)
        var length = 0
        for index in 1..<needle.count {
            while length > 0 && needle[index] != needle[length] { length = fallback[length - 1] }
            if needle[index] == needle[length] { length += 1 }
            fallback[index] = length
        }
        var matched = 0
        for byte in haystack {
            while matched > 0 && byte != needle[matched] { matched = fallback[matched - 1] }
            if byte == needle[matched] { matched += 1 }
            if matched == needle.count { return true }
        }
        return false
    }

    /// The rule can only be judged on the complete body.
    public var needsWholeBody: Bool {
        if case .exact = self { return true }
        return false
    }
}

public struct HeaderRule: Sendable, Equatable {
    public var name: String
    public var value: String

}

public struct Expectation: Sendable, Equatable {
    /// Accepted HTTP status codes.
    public var statuses: [Int]
    /// nil: the body is not judged.
    public var body: BodyRule?
    /// A header that proves success on its own when the status is accepted
    /// (NetworkManager's `X-NetworkManager-Status: online`).
    public var successHeader: HeaderRule?

    public init(statuses: [Int], body: BodyRule? = nil, successHeader: HeaderRule? = nil) {
        self.statuses = statuses
        self.body = body
        self.successHeader = successHeader
    }
}

public struct ProbeSpec: Sendable, Equatable {
    public var name: String
    public var url: String
    /// Who runs the endpoint. Probes of one operator count once toward the quorum:
    /// one organisation cannot make or break the verdict alone.
    public var operatorName: String
    public var family: AddressFamily?
    public var interface: String?
    public var expect: Expectation

    public init(name: String, url: String, operatorName: String, family: AddressFamily? = nil, interface: String? = nil, expect: Expectation) {
        self.name = name
        self.url = url
        self.operatorName = operatorName
        self.family = family
        self.interface = interface
        self.expect = expect
    }

    /// Compared byte by byte: `lowercased()` of the whole URL, for every probe in every
    /// re-evaluation of the verdict, was a measurable share of a 64-probe check.
    public var isHTTPS: Bool { Self.isHTTPS(url) }

    /// Whether `url` starts with "https://", in any case.
    public static func isHTTPS(_ url: String) -> Bool {
        var bytes = url.utf8.makeIterator()
        for expected in "https://".utf8 {
            guard var byte = bytes.next() else { return false }
            if byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") { byte += 0x20 }
            guard byte == expected else { return false }
        }
        return true
    }
}

public struct ProbeConfig: Sendable, Equatable {
    public var version: Int
    /// Default deadline for a whole command, in seconds (`--timeout` overrides it).
    public var timeout: Double
    /// Deadline for one probe, in seconds (never past the command's deadline).
    public var probeTimeout: Double
    /// Independent operators that must answer correctly for `online`, and that must show
    /// interception to make `portal` stand against successes.
    public var quorum: Int
    public var maxBodyBytes: Int
    public var probes: [ProbeSpec]

    public init(version: Int = 1, timeout: Double = 10, probeTimeout: Double = 6, quorum: Int = 2, maxBodyBytes: Int = 65536, probes: [ProbeSpec]) {
        self.version = version
        self.timeout = timeout
        self.probeTimeout = probeTimeout
        self.quorum = quorum
        self.maxBodyBytes = maxBodyBytes
        self.probes = probes
    }

    public var operatorCount: Int { Set(probes.map(\.operatorName)).count }
}
