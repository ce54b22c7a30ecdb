#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Glibc
import NetprobeCore
import NetprobeLink

/// Small, bounded readers for the state files DHCP clients and systemd-networkd leave behind.
/// Nothing here trusts a file's size or content: reads stop at 64 KiB, only regular files are
/// read (FIFOs do not block), a symbolic link is not followed (their writers never make one),
/// and a value is only a URI candidate (the query step decides whether it is usable).
enum StateFiles {
    static let limit = 64 * 1024

    static func bytes(_ path: String) -> [UInt8]? {
        BoundedFile.bytes(path, limit: limit, followSymlinks: false)
    }

    static func text(_ path: String) -> String? {
        bytes(path).map { String(decoding: $0, as: UTF8.self) }
    }

    static func modified(_ path: String) -> Date? {
        BoundedFile.modificationTime(path).map { Date(timeIntervalSince1970: $0) }
    }

    static func list(_ directory: String) -> [String] {
        DirectoryListing.names(in: directory).sorted()
    }

    /// The value of `KEY=value` in a systemd-style state file (quotes around the value removed);
    /// nil when absent or empty.
    static func keyValue(_ key: String, in path: String) -> String? {
        guard let text = text(path) else { return nil }
        for line in text.split(whereSeparator: \.isNewline) where line.hasPrefix(key + "=") {
            var value = line.dropFirst(key.count + 1).trimmingWhitespaces()
            if value.count >= 2, let first = value.first, first == "\"" || first == "'", value.last == first {
                value = String(value.dropFirst().dropLast())
            }
            return value.isEmpty ? nil : value
        }
        return nil
    }
}

/// DHCPv4 option 114 (RFC 8910, "captive portal URI") from the leases of dhcpcd and dhclient.
enum DHCPLease {
    static let captivePortalOption: UInt8 = 114
    static let leaseTimeOption: UInt8 = 51
    static let domainNameServersOption: UInt8 = 6

    /// dhcpcd keeps the server's raw DHCP message: BOOTP header, magic cookie, then options.
    /// The lease has expired when the file is older than its lease time (option 51).
    static func captivePortal(inBinaryLease path: String, now: Date) -> String? {
        guard let raw = unexpiredOption(captivePortalOption, inBinaryLease: path, now: now) else { return nil }
        return uri(raw)
    }

    /// Option 6 of a dhcpcd lease: the network's IPv4 resolvers, four bytes each.
    static func nameServers(inBinaryLease path: String, now: Date) -> [String]? {
        guard let raw = unexpiredOption(domainNameServersOption, inBinaryLease: path, now: now),
              !raw.isEmpty, raw.count % 4 == 0 else { return nil }
        return stride(from: 0, to: raw.count, by: 4).map { IPAddressFormat.text(raw[$0..<($0 + 4)]) }
    }

    /// One option of a dhcpcd lease that has not expired: the file is older than its lease
    /// time (option 51) when it has.
    static func unexpiredOption(_ code: UInt8, inBinaryLease path: String, now: Date) -> [UInt8]? {
        guard let message = StateFiles.bytes(path), let options = options(message), let raw = options[code] else {
            return nil
        }
        if let time = options[leaseTimeOption], time.count == 4, let written = StateFiles.modified(path) {
            let seconds = time.reduce(0) { $0 << 8 | UInt32($1) }
            if seconds != UInt32.max && written.addingTimeInterval(TimeInterval(seconds)) < now { return nil }
        }
        return raw
    }

    /// The DHCP options of a BOOTP message (first occurrence of each; no overload support).
    static func options(_ message: [UInt8]) -> [UInt8: [UInt8]]? {
        let cookie: [UInt8] = [99, 130, 83, 99]
        guard message.count >= 240, Array(message[236..<240]) == cookie else { return nil }
        var result: [UInt8: [UInt8]] = [:]
        var index = 240
        while index < message.count {
            let code = message[index]
            if code == 255 { break }
            if code == 0 { index += 1; continue }
            guard index + 1 < message.count else { break }
            let length = Int(message[index + 1])
            let start = index + 2
            guard start + length <= message.count else { break }
            if result[code] == nil { result[code] = Array(message[start..<(start + length)]) }
            index = start + length
        }
        return result
    }

    /// A URI from option bytes: UTF-8, trailing NULs dropped, no control characters.
    static func uri(_ raw: [UInt8]) -> String? {
        var bytes = raw
        while bytes.last == 0 { bytes.removeLast() }
        guard !bytes.isEmpty, bytes.allSatisfy({ $0 >= 0x21 && $0 != 0x7F }),
              let text = String(validating: bytes, as: UTF8.self) else { return nil }
        return text
    }

    /// dhclient appends a `lease { ... }` block per lease; the last unexpired one for the
    /// interface, in the most recently written file, counts.
    static func captivePortal(inDhclientLeases directory: String, interface: String, now: Date) -> String? {
        newestLease(inDhclientLeases: directory, interface: interface, now: now) { $0.captivePortal }
    }

    /// `option domain-name-servers` of the newest unexpired dhclient lease for the interface.
    static func nameServers(inDhclientLeases directory: String, interface: String, now: Date) -> [String]? {
        newestLease(inDhclientLeases: directory, interface: interface, now: now) { $0.nameServers }
    }

    /// What `value` reads from the last unexpired lease block for the interface, in the most
    /// recently written file that has one.
    private static func newestLease<Value>(inDhclientLeases directory: String, interface: String, now: Date,
                                           _ value: (DhclientLease) -> Value?) -> Value? {
        // Each file dated once, not at every comparison of the sort.
        let files = StateFiles.list(directory)
            .filter { $0.hasPrefix("dhclient") && $0.contains(".lease") }
            .map { name in let path = "\(directory)/\(name)"; return (path: path, written: StateFiles.modified(path) ?? .distantPast) }
            .sorted { $0.written > $1.written }
            .map(\.path)
        for file in files {
            guard let text = StateFiles.text(file) else { continue }
            var found: Value?
            for block in text.components(separatedBy: "lease {").dropFirst() {
                let lease = DhclientLease(block.prefix { $0 != "}" })
                guard lease.interface == interface, !lease.expired(now: now) else { continue }
                found = value(lease)
            }
            if let found { return found }
        }
        return nil
    }
}

/// The statements of one dhclient lease block that matter here.
struct DhclientLease {
    var interface: String?
    var captivePortal: String?
    /// `option domain-name-servers 198.51.100.1, 198.51.100.2;`
    var nameServers: [String]?
    var expiry: Date?

    init(_ block: Substring) {
        for statement in block.split(separator: ";") {
            let words = statement.split(whereSeparator: \.isWhitespace)
            guard let first = words.first else { continue }
            if first == "interface", words.count >= 2 {
                interface = Self.unquote(words[1])
            } else if first == "option", words.count >= 3, words[1] == "default-url" || words[1] == "captive-portal" {
                captivePortal = Self.unquote(words[2]).flatMap { DHCPLease.uri(Array($0.utf8)) }
            } else if first == "option", words.count >= 3, words[1] == "domain-name-servers" {
                nameServers = words.dropFirst(2).joined(separator: " ").split(separator: ",")
                    .map { $0.trimmingWhitespaces() }.filter { !$0.isEmpty }
            } else if first == "expire", words.count >= 4 {
                expiry = Self.date(words[2], words[3])
            }
        }
    }

    func expired(now: Date) -> Bool {
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
