/// Text that came from the network must never drive the terminal: control
/// characters (C0, DEL, C1, and the bidi overrides) are shown as escapes.
public enum TerminalText {
    public static func escape(_ text: String, limit: Int = 512) -> String {
        var out = ""
        var count = 0
        for scalar in text.unicodeScalars {
            if count >= limit {
                out += "…"
                break
            }
            count += 1
            switch scalar.value {
            case 0x09: out += "\\t"
            case 0x0A: out += "\\n"
            case 0x0D: out += "\\r"
            case 0x00...0x1F, 0x7F:
                out += "\\x" + hex(scalar.value, width: 2)
            case 0x80...0x9F, 0x061C, 0x200B...0x200F, 0x2028...0x202E, 0x2060...0x2069, 0xFEFF:
                out += "\\u{" + hex(scalar.value, width: 4) + "}"
            default:
                out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    /// A message of several lines for stderr or stdout: every line escaped as `escape` does,
    /// the line breaks between them kept. Text that went through it once comes out unchanged
    /// the second time (no control characters are left to escape), so an edge may apply it
    /// to messages whose parts were escaped already.
    /// `keepTabs`: for text that may lay out columns with tabs (help, completion scripts).
    public static func escapeLines(_ text: String, keepTabs: Bool = false) -> String {
        text.split(separator: "\n", omittingEmptySubsequences: false)
            .map { line in
                guard keepTabs else { return escape(String(line), limit: Int.max) }
                return line.split(separator: "\t", omittingEmptySubsequences: false)
                    .map { escape(String($0), limit: Int.max) }.joined(separator: "\t")
            }
            .joined(separator: "\n")
    }

    private static func hex(_ value: UInt32, width: Int) -> String {
        let digits = String(value, radix: 16)
        return String(repeating: "0", count: max(0, width - digits.count)) + digits
    }
}

/// ANSI colour, used only when stdout is a terminal and NO_COLOR is unset.
public struct Palette: Sendable {
    public var enabled: Bool

    public init(enabled: Bool) {
        self.enabled = enabled
    }

    public func paint(_ text: String, _ code: String) -> String {
        enabled ? "\u{1B}[\(code)m\(text)\u{1B}[0m" : text
    }

    public func green(_ text: String) -> String { paint(text, "32") }
    public func yellow(_ text: String) -> String { paint(text, "33") }
    public func red(_ text: String) -> String { paint(text, "31") }
    public func bold(_ text: String) -> String { paint(text, "1") }
    public func dim(_ text: String) -> String { paint(text, "2") }
}
