#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// What an RFC 8908 Captive Portal API answered (`application/captive+json`).
public struct CapportAnswer: Sendable, Equatable {
    /// Required by RFC 8908; true means this client is held by the portal.
    public var captive: Bool
    /// Where the user logs in; https only (RFC 8908 requires TLS for it).
    public var userPortalURL: String?
    /// A page about the venue; http or https.
    public var venueInfoURL: String?
    /// Seconds until the session ends (the client is captive again).
    public var secondsRemaining: Int?
    /// Bytes left in the session.
    public var bytesRemaining: Int?
    public var canExtendSession: Bool?

    public init(captive: Bool, userPortalURL: String? = nil, venueInfoURL: String? = nil, secondsRemaining: Int? = nil,
                bytesRemaining: Int? = nil, canExtendSession: Bool? = nil) {
        self.captive = captive
        self.userPortalURL = userPortalURL
        self.venueInfoURL = venueInfoURL
        self.secondsRemaining = secondsRemaining
        self.bytesRemaining = bytesRemaining
        self.canExtendSession = canExtendSession
    }
}

public enum CapportParser {
    /// An API answer larger than this is not a capport answer.
    public static let maxBytes = 16 * 1024

    /// Parses the JSON document. `captive` must be present and boolean, or the whole answer is
    /// rejected (it is the one required key); any other key of the wrong type, out of range or
    /// with an unacceptable URL is dropped (null) on its own. Unknown keys are ignored (RFC 8908
    /// lets the registry grow).
    public static func parse(_ bytes: [UInt8]) -> Result<CapportAnswer, CapportError> {
        guard bytes.count <= maxBytes else { return .failure(.invalid("answer larger than \(maxBytes) bytes")) }
        let value: JSONValue
        do {
            // Depth 8: an answer is one flat object; anything deeper is not worth walking.
            value = try JSONReader.parse(bytes, limits: JSONReader.Limits(maxBytes: maxBytes, maxDepth: 8))
        } catch {
            // A repeated "captive" is refused here: readers that take the first and the last would disagree.
            return .failure(.invalid("answer is not JSON: \(error)"))
        }
        guard case .object(let fields) = value.content else { return .failure(.invalid("answer is \(value.kindName), not an object")) }
        guard let captiveValue = fields["captive"] else { return .failure(.invalid("answer has no \"captive\" key")) }
        guard case .bool(let captive) = captiveValue.content else {
            return .failure(.invalid("\"captive\" is \(captiveValue.kindName), not a boolean"))
        }
        var answer = CapportAnswer(captive: captive)
        answer.userPortalURL = url(fields["user-portal-url"], schemes: ["https"])
        answer.venueInfoURL = url(fields["venue-info-url"], schemes: ["https", "http"])
        answer.secondsRemaining = count(fields["seconds-remaining"])
        answer.bytesRemaining = count(fields["bytes-remaining"])
        if case .bool(let extend)? = fields["can-extend-session"]?.content { answer.canExtendSession = extend }
        return .success(answer)
    }

    static func url(_ value: JSONValue?, schemes: Set<String>) -> String? {
        guard case .string(let text)? = value?.content, URLRules.httpHost(text) != nil,
              let scheme = URLComponents(string: text)?.scheme?.lowercased(), schemes.contains(scheme) else { return nil }
        return text
    }

    /// A non-negative whole number that fits in 53 bits (what JSON carries exactly); fractions are cut.
    static func count(_ value: JSONValue?) -> Int? {
        guard case .number(let number)? = value?.content, number.isFinite, number >= 0, number <= 9_007_199_254_740_991 else { return nil }
        return Int(number.rounded(.down))
    }
}

public enum CapportError: Error, Sendable, Equatable, CustomStringConvertible {
    case invalid(String)

    public var description: String {
        switch self {
        case .invalid(let message): return message
        }
    }
}
