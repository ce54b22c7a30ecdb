#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// RFC 3986 syntax for the absolute http(s) URLs netprobe is given (probes.json, the
/// Captive Portal API, proxies). URLComponents is lenient where it matters: it takes
/// `http://%zz/`, stray brackets and hosts no resolver would accept, and a URL that one
/// reader accepts and another reads differently is how a probe ends up somewhere else.
/// So: ASCII only, every `%` followed by two hex digits, brackets only around an IPv6
/// literal, a host of DNS size (at most 253 bytes, labels of at most 63), a port of 1-65535.
public enum URLSyntax {
    /// The parts of a valid absolute URL, or nil when it is not one.
    struct Parts: Equatable {
        var scheme: String
        var host: String
        var port: Int?
    }

    static func parse(_ text: String) -> Parts? {
        let bytes = Array(text.utf8)
        guard !bytes.isEmpty, bytes.count <= 2048, bytes.allSatisfy({ $0 > 0x20 && $0 < 0x7F }) else { return nil }
        guard let colon = bytes.firstIndex(of: UInt8(ascii: ":")), colon > 0, isAlpha(bytes[0]),
              bytes[..<colon].allSatisfy({ isAlpha($0) || isDigit($0) || $0 == 0x2B || $0 == 0x2D || $0 == 0x2E }),
              bytes[colon...].starts(with: Array("://".utf8)) else { return nil }
        let scheme = String(decoding: bytes[..<colon], as: UTF8.self).lowercased()
        let authorityStart = colon + 3
        let authorityEnd = bytes[authorityStart...].firstIndex { $0 == 0x2F || $0 == 0x3F || $0 == 0x23 } ?? bytes.count
        guard let (host, port) = authority(bytes[authorityStart..<authorityEnd]),
              rest(bytes[authorityEnd...]) else { return nil }
        return Parts(scheme: scheme, host: host, port: port)
    }

    /// `[userinfo@]host[:port]`
    private static func authority(_ slice: ArraySlice<UInt8>) -> (String, Int?)? {
        var hostPart = slice
        if let at = slice.lastIndex(of: UInt8(ascii: "@")) {
            guard valid(slice[slice.startIndex..<at], extra: ":") else { return nil }
            hostPart = slice[(at + 1)...]
        }
        var portText: ArraySlice<UInt8>?
        if hostPart.first == UInt8(ascii: "[") {
            guard let close = hostPart.firstIndex(of: UInt8(ascii: "]")) else { return nil }
            let after = hostPart[(close + 1)...]
            if !after.isEmpty {
                guard after.first == UInt8(ascii: ":") else { return nil }
                portText = after.dropFirst()
            }
            // IPvFuture ("[v1.x]") is refused: nothing can connect to it.
            guard IPAddressText.ipv6(bytes: hostPart[(hostPart.startIndex + 1)..<close], zone: .urlEncoded, octets: .strict) != nil
            else { return nil }
            hostPart = hostPart[hostPart.startIndex...close]
        } else {
            if let colon = hostPart.lastIndex(of: UInt8(ascii: ":")) {
                portText = hostPart[(colon + 1)...]
                hostPart = hostPart[hostPart.startIndex..<colon]
            }
            guard isRegName(hostPart) else { return nil }
        }
        var port: Int?
        if let portText {
            guard !portText.isEmpty, portText.count <= 5, portText.allSatisfy(isDigit),
                  let number = Int(String(decoding: portText, as: UTF8.self)), (1...65_535).contains(number) else { return nil }
            port = number
        }
        return (String(decoding: hostPart, as: UTF8.self).lowercased(), port)
    }

    /// A DNS-sized reg-name: unreserved, sub-delims or %XX; 1-253 bytes, labels 1-63 (a final dot allowed).
    private static func isRegName(_ host: ArraySlice<UInt8>) -> Bool {
        guard !host.isEmpty, host.count <= 253, valid(host, extra: "") else { return false }
        var labels = host.split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false)
        if labels.count > 1, labels.last?.isEmpty == true { labels.removeLast() }
        return labels.allSatisfy { !$0.isEmpty && $0.count <= 63 }
    }

    /// path-abempty [ "?" query ] [ "#" fragment ]: pchar, "/" and (after "?") "?".
    private static func rest(_ slice: ArraySlice<UInt8>) -> Bool {
        var part = slice
        var fragment: ArraySlice<UInt8> = []
        if let hash = slice.firstIndex(of: UInt8(ascii: "#")) {
            part = slice[slice.startIndex..<hash]
            fragment = slice[(hash + 1)...]
        }
        return valid(part, extra: ":@/?") && valid(fragment, extra: ":@/?")
    }

    /// Every byte unreserved, a sub-delim (unless told not), in `extra`, or a complete %XX.
    /// Byte tests, not sets built per call: every probe URL passes here at every start.
    static func valid(_ slice: ArraySlice<UInt8>, extra: String, subDelims: Bool = true) -> Bool {
        var index = slice.startIndex
        while index < slice.endIndex {
            let byte = slice[index]
            if byte == UInt8(ascii: "%") {
                guard index + 2 < slice.endIndex, isHex(slice[index + 1]), isHex(slice[index + 2]) else { return false }
                index += 3
                continue
            }
            guard isUnreserved(byte) || (subDelims && isSubDelim(byte)) || extra.utf8.contains(byte) else { return false }
            index += 1
        }
        return true
    }

    private static func isUnreserved(_ byte: UInt8) -> Bool {
        isAlpha(byte) || isDigit(byte) || byte == UInt8(ascii: "-") || byte == UInt8(ascii: ".")
            || byte == UInt8(ascii: "_") || byte == UInt8(ascii: "~")
    }

    /// `!$&'()*+,;=`
    private static func isSubDelim(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "!"), UInt8(ascii: "$"), UInt8(ascii: "&"), UInt8(ascii: "'"), UInt8(ascii: "("), UInt8(ascii: ")"),
             UInt8(ascii: "*"), UInt8(ascii: "+"), UInt8(ascii: ","), UInt8(ascii: ";"), UInt8(ascii: "="):
            return true
        default:
            return false
        }
    }

    private static func isAlpha(_ byte: UInt8) -> Bool { (byte | 0x20) >= 0x61 && (byte | 0x20) <= 0x7A }
    private static func isDigit(_ byte: UInt8) -> Bool { byte >= 0x30 && byte <= 0x39 }
    private static func isHex(_ byte: UInt8) -> Bool { isDigit(byte) || ((byte | 0x20) >= 0x61 && (byte | 0x20) <= 0x66) }
}

extension URLSyntax {
    /// The host (as written, lower case) and port (the scheme's when none is written) of a
    /// valid http(s) URL: what a name lookup for it asks and what `CURLOPT_RESOLVE` pins.
    public static func hostAndPort(_ url: String) -> (host: String, port: Int)? {
        guard let parts = parse(url) else { return nil }
        return (parts.host.lowercased(), parts.port ?? (parts.scheme == "https" ? 443 : 80))
    }
}
