#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The statements of one ISC dhclient `lease { ... }` block that matter here.
public struct DhclientLease: Sendable, Equatable {
    public var interface: String?
    /// `option default-url` (dhclient's name for option 114) or `option captive-portal`.
    public var captivePortal: String?
    /// `option domain-name-servers 198.51.100.1, 198.51.100.2;`
    public var nameServers: [String]?
    public var expiry: Date?

    /// Every lease block of a dhclient lease file, in file order (dhclient appends).
    public static func blocks(in text: String) -> [DhclientLease] {
        text.components(separatedBy: "lease {").dropFirst().map { DhclientLease($0.prefix { $0 != "}" }) }
    }

    public init(_ block: Substring) {
        for statement in block.split(separator: ";") {
            let words = statement.split(whereSeparator: \.isWhitespace)
            guard let first = words.first else { continue }
            if first == "interface", words.count >= 2 {
                interface = Self.unquote(words[1])
            } else if first == "option", words.count >= 3, words[1] == "default-url" || words[1] == "captive-portal" {
                captivePortal = Self.unquote(words[2]).flatMap { DHCPMessage.uri(Array($0.utf8)) }
            } else if first == "option", words.count >= 3, words[1] == "domain-name-servers" {
                nameServers = words.dropFirst(2).joined(separator: " ").split(separator: ",")
                    .map { $0.trimmingWhitespaces() }.filter { !$0.isEmpty }
            } else if first == "expire", words.count >= 4 {
                expiry = Self.date(words[2], words[3])
            }
        }
    }

    public func expired(now: Date) -> Bool {
        expiry.map { $0 < now } ?? false
    }

    static func unquote(_ word: Substring) -> String? {
        guard word.count >= 2, word.first == "\"", word.last == "\"" else { return nil }
        return String(word.dropFirst().dropLast())
    }

    /// "2026/11/24 18:00:00" in UTC, as dhclient writes it ("expire never;" has no date).
    static func date(_ day: Substring, _ time: Substring) -> Date? {
        let d = day.split(separator: "/").compactMap { Int($0) }, t = time.split(separator: ":").compactMap { Int($0) }
        guard d.count == 3, t.count == 3 else { return nil }
        var components = DateComponents(year: d[0], month: d[1], day: d[2], hour: t[0], minute: t[1], second: t[2])
        // Not TimeZone(identifier: "UTC"): without ICU (FoundationEssentials) named zones are nil,
        // which would silently mean local time.
        components.timeZone = TimeZone(secondsFromGMT: 0)
        return Calendar(identifier: .gregorian).date(from: components)
    }
}
