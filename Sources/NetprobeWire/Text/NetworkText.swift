/// Strings from the network (headers, portal pages, Captive Portal API answers, error texts
/// that quote them) on their way into a machine-readable sink. The terminal has its own,
/// visible escaping (`TerminalText`); these sinks are read by programs that pass values on
/// (`jq -r`, a dashboard, a shell hook), so C0 and C1 control characters and DEL are
/// replaced by U+FFFD: the value keeps its length and shows that something was there,
/// and no consumer can be made to emit a terminal escape (CSI is one byte in C1: U+009B).
///
/// One function per edge, so each sink says which rule it applies; today they share one.
public enum NetworkText {
    /// A JSON string value (report, watch record, portal and API documents).
    public static func jsonValue(_ text: String) -> String { filtered(text) }
    public static func jsonValue(_ text: String?) -> String? { text.map(filtered) }

    /// A Prometheus label value (escaping of `\`, `"` and newline is the writer's, after this).
    public static func labelValue(_ text: String) -> String { filtered(text) }

    /// A value in a hook's environment: a NUL would cut it, controls would reach a shell's echo.
    public static func environmentValue(_ text: String) -> String { filtered(text) }

    public static let replacement: Unicode.Scalar = "\u{FFFD}"

    static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value)
    }

    static func filtered(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: isControl) else { return text }
        var out = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            out.append(isControl(scalar) ? replacement : scalar)
        }
        return String(out)
    }
}
