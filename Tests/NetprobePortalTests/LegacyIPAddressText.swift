import Foundation

/// The Character-based address parser netprobe used before the faster one on UTF-8 bytes
/// (IPAddressText): kept here only as the oracle AddressClassTests compares the new one with.
enum LegacyIPAddressText {
    static func ipv4(_ text: Substring) -> [UInt8]? {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 4 else { return nil }
        var out: [UInt8] = []
        for part in parts {
            guard (1...3).contains(part.count), part.allSatisfy({ $0.isASCII && $0.isNumber }), let value = UInt8(part) else { return nil }
            out.append(value)
        }
        return out
    }

    static func ipv6(_ text: Substring) -> [UInt8]? {
        guard text.count <= 45, text.contains(":") else { return nil }
        let halves = text.components(separatedBy: "::")
        guard halves.count <= 2 else { return nil }
        func groups(_ part: String, allowIPv4Tail: Bool) -> [UInt8]? {
            if part.isEmpty { return [] }
            var out: [UInt8] = []
            let pieces = part.split(separator: ":", omittingEmptySubsequences: false)
            for (index, piece) in pieces.enumerated() {
                if allowIPv4Tail && index == pieces.count - 1 && piece.contains(".") {
                    guard let v4 = ipv4(piece) else { return nil }
                    out += v4
                } else {
                    guard (1...4).contains(piece.count), piece.allSatisfy(\.isHexDigit), piece.allSatisfy(\.isASCII),
                          let value = UInt16(piece, radix: 16) else { return nil }
                    out += [UInt8(value >> 8), UInt8(value & 0xFF)]
                }
            }
            return out
        }
        if halves.count == 1 {
            guard let all = groups(halves[0], allowIPv4Tail: true), all.count == 16 else { return nil }
            return all
        }
        guard let head = groups(halves[0], allowIPv4Tail: false), let tail = groups(halves[1], allowIPv4Tail: true),
              head.count + tail.count <= 14 else { return nil }
        return head + [UInt8](repeating: 0, count: 16 - head.count - tail.count) + tail
    }
}
