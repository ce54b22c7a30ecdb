#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import NetprobeWire

/// The statements of one ISC dhclient `lease { ... }` block that matter here, read as dhclient
/// writes them (dhclient.leases(5)): statements end with `;`, strings are quoted with `\"`,
/// `\\` and octal `\ooo` escapes (so a `}` or `;` inside one is text), `#` starts a comment
/// outside strings, and a block counts only when its closing `}` is there (a file cut short
/// loses its last block, never reads half of it).
public struct DhclientLease: Sendable, Equatable {
    public enum Expiry: Sendable, Equatable {
        /// `expire W YYYY/MM/DD HH:MM:SS;` (UTC) or `expire epoch N;` (`db-time-format local`).
        case at(Date)
        /// `expire never;`
        case never
        /// No readable `expire` statement: the lease cannot be shown to be current.
        case unknown
    }

    public var interface: String?
    /// `fixed-address`: the address the lease gave.
    public var address: String?
    /// `option default-url` (dhclient's name for option 114) or `option captive-portal`.
    public var captivePortal: String?
    /// `option dhcp-server-identifier` (option 54): the server that gave the lease.
    public var server: String?
    /// `option domain-name-servers 198.51.100.1, 198.51.100.2;`
    public var nameServers: [String]?
    public var expiry: Expiry = .unknown

    public init(interface: String? = nil, address: String? = nil, captivePortal: String? = nil,
                nameServers: [String]? = nil, expiry: Expiry = .unknown) {
        self.interface = interface
        self.address = address
        self.captivePortal = captivePortal
        self.nameServers = nameServers
        self.expiry = expiry
    }

    /// Every complete IPv4 lease block of a dhclient lease file, in file order (dhclient appends).
    public static func blocks(in text: String) -> [DhclientLease] {
        var leases: [DhclientLease] = []
        var tokens = Tokens(Array(text.utf8))
        var statement: [Token] = []
        while let token = tokens.next() {
            switch token {
            case .open:
                // `lease {` at the top level is a block of ours; any other block is skipped whole.
                if statement == [.word("lease")] {
                    if let lease = block(&tokens) { leases.append(lease) }
                } else if !tokens.skipBlock() {
                    return leases
                }
                statement = []
            case .end, .close:
                statement = []
            default:
                statement.append(token)
            }
        }
        return leases
    }

    /// The statements of a lease block up to its `}`; nil when the text ends first.
    static func block(_ tokens: inout Tokens) -> DhclientLease? {
        var lease = DhclientLease()
        var statement: [Token] = []
        while let token = tokens.next() {
            switch token {
            case .close:
                return lease
            case .open:
                guard tokens.skipBlock() else { return nil }
                statement = []
            case .end:
                lease.apply(statement)
                statement = []
            default:
                statement.append(token)
            }
        }
        return nil
    }

    mutating func apply(_ statement: [Token]) {
        guard case .word(let keyword)? = statement.first else { return }
        let rest = Array(statement.dropFirst())
        switch keyword {
        case "interface":
            if rest.count == 1, case .string(let name) = rest[0] { interface = name }
        case "fixed-address":
            if rest.count == 1, case .word(let text) = rest[0] { address = text }
        case "expire":
            expiry = Self.expiry(rest)
        case "option":
            guard case .word(let name)? = rest.first else { return }
            let values = Array(rest.dropFirst())
            switch name {
            case "default-url", "captive-portal":
                if values.count == 1, case .string(let text) = values[0] { captivePortal = DHCPMessage.uri(Array(text.utf8)) }
            case "dhcp-server-identifier":
                if values.count == 1, case .word(let text) = values[0],
                   IPAddressText.address(text, octets: .strict)?.count == 4 { server = text }
            case "domain-name-servers":
                // Addresses separated by commas: `a, b` or `a,b`.
                var servers: [String] = []
                for value in values {
                    switch value {
                    case .word(let text): servers += text.split(separator: ",").map(String.init)
                    case .comma: continue
                    default: return
                    }
                }
                nameServers = servers.isEmpty ? nil : servers
            default:
                return
            }
        default:
            return
        }
    }

    static func expiry(_ words: [Token]) -> Expiry {
        switch words {
        case [.word("never")]:
            return .never
        case let w where w.count == 2 && w[0] == .word("epoch"):
            guard case .word(let seconds) = w[1], let value = Int64(seconds), value >= 0, value < 1 << 40 else { return .unknown }
            return .at(Date(timeIntervalSince1970: TimeInterval(value)))
        case let w where w.count == 3:
            guard case .word(let weekday) = w[0], weekday.count == 1, weekday.allSatisfy(\.isNumber),
                  case .word(let day) = w[1], case .word(let time) = w[2], let date = date(day, time) else { return .unknown }
            return .at(date)
        default:
            return .unknown
        }
    }

    /// Expired, or not shown to be current (no readable `expire`).
    public func expired(now: Date) -> Bool {
        switch expiry {
        case .at(let date): date <= now
        case .never: false
        case .unknown: true
        }
    }

    /// "2026/11/24" "18:00:00" in UTC, as dhclient writes it; nil unless every field is in range.
    static func date(_ day: String, _ time: String) -> Date? {
        let d = day.split(separator: "/", omittingEmptySubsequences: false).map { Int($0) }
        let t = time.split(separator: ":", omittingEmptySubsequences: false).map { Int($0) }
        guard d.count == 3, t.count == 3, let year = d[0], let month = d[1], let mday = d[2],
              let hour = t[0], let minute = t[1], let second = t[2],
              (1970...9999).contains(year), (1...12).contains(month), (1...31).contains(mday),
              (0...23).contains(hour), (0...59).contains(minute), (0...60).contains(second) else { return nil }
        var components = DateComponents(year: year, month: month, day: mday, hour: hour, minute: minute, second: second)
        // Not TimeZone(identifier: "UTC"): without ICU (FoundationEssentials) named zones are nil,
        // which would silently mean local time.
        components.timeZone = TimeZone(secondsFromGMT: 0)
        return Calendar(identifier: .gregorian).date(from: components)
    }

    enum Token: Equatable {
        case word(String)
        case string(String)
        case open, close, end, comma
    }

    /// dhclient's lexical rules over the file's bytes.
    struct Tokens {
        let bytes: [UInt8]
        var index = 0

        init(_ bytes: [UInt8]) { self.bytes = bytes }

        mutating func next() -> Token? {
            while index < bytes.count {
                let byte = bytes[index]
                switch byte {
                case UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\n"), UInt8(ascii: "\r"):
                    index += 1
                case UInt8(ascii: "#"):
                    while index < bytes.count && bytes[index] != UInt8(ascii: "\n") { index += 1 }
                case UInt8(ascii: "{"): index += 1; return .open
                case UInt8(ascii: "}"): index += 1; return .close
                case UInt8(ascii: ";"): index += 1; return .end
                case UInt8(ascii: ","): index += 1; return .comma
                case UInt8(ascii: "\""):
                    index += 1
                    return quoted()
                default:
                    let start = index
                    while index < bytes.count && !Self.delimiters.contains(bytes[index]) { index += 1 }
                    return .word(String(decoding: bytes[start..<index], as: UTF8.self))
                }
            }
            return nil
        }

        static let delimiters: Set<UInt8> = Set(" \t\n\r#{};,\"".utf8)

        /// The rest of a quoted string, its escapes undone; an unterminated one is the end of
        /// the text (nil).
        mutating func quoted() -> Token? {
            var out: [UInt8] = []
            while index < bytes.count {
                let byte = bytes[index]
                index += 1
                if byte == UInt8(ascii: "\"") { return .string(String(decoding: out, as: UTF8.self)) }
                guard byte == UInt8(ascii: "\\"), index < bytes.count else {
                    out.append(byte)
                    continue
                }
                let escaped = bytes[index]
                if (UInt8(ascii: "0")...UInt8(ascii: "7")).contains(escaped) {
                    var value = 0, digits = 0
                    while digits < 3, index < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "7")).contains(bytes[index]) {
                        value = value * 8 + Int(bytes[index] - UInt8(ascii: "0"))
                        index += 1
                        digits += 1
                    }
                    out.append(UInt8(truncatingIfNeeded: value))
                } else {
                    out.append(escaped)
                    index += 1
                }
            }
            index = bytes.count
            return nil
        }

        /// Skips to the `}` closing a block whose `{` was just read; false when the text ends first.
        mutating func skipBlock() -> Bool {
            var depth = 1
            while let token = next() {
                if token == .open { depth += 1 }
                if token == .close {
                    depth -= 1
                    if depth == 0 { return true }
                }
            }
            return false
        }
    }
}
