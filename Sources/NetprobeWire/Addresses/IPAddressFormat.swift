/// Address bytes as text, the way `inet_ntop` writes them (RFC 5952 for IPv6: lower-case
/// hex, the longest run of two or more zero groups as "::"), without C.
public enum IPAddressFormat {
    public static func text(_ bytes: ArraySlice<UInt8>) -> String {
        let b = Array(bytes)
        if b.count == 4 { return "\(b[0]).\(b[1]).\(b[2]).\(b[3])" }
        guard b.count == 16 else { return "" }
        let groups = (0..<8).map { Int(b[2 * $0]) << 8 | Int(b[2 * $0 + 1]) }
        // The longest run of zero groups (the first of equals), if two or more long.
        var best = (start: -1, length: 0), run = (start: -1, length: 0)
        for (index, group) in groups.enumerated() {
            if group == 0 {
                run = run.start < 0 ? (index, 1) : (run.start, run.length + 1)
                if run.length > best.length { best = run }
            } else {
                run = (-1, 0)
            }
        }
        func hex(_ range: Range<Int>) -> String {
            range.map { String(groups[$0], radix: 16) }.joined(separator: ":")
        }
        guard best.length >= 2 else { return hex(0..<8) }
        return hex(0..<best.start) + "::" + hex((best.start + best.length)..<8)
    }
}
