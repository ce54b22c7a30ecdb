/// The one HTML escaper: text for an element's content or a quoted attribute value. Text is
/// first made visible as TerminalText makes it (controls and bidi overrides shown as escapes,
/// so a portal URL cannot reorder what the reader sees around it), then `& < > " '` become
/// character references, which is enough for both places.
public enum HTMLText {
    public static func escape(_ text: String, limit: Int = 512) -> String {
        let visible = TerminalText.escape(text, limit: limit)
        var out = ""
        out.reserveCapacity(visible.utf8.count)
        for scalar in visible.unicodeScalars {
            switch scalar {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&#39;"
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }
}
