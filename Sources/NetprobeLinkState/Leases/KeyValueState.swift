import NetprobeWire

/// systemd-style state files (`KEY=value` lines): networkd's per-link state and
/// NetworkManager's internal DHCP client leases.
public enum KeyValueState {
    /// The value of `KEY=value` (quotes around the value removed); nil when absent or empty.
    public static func value(_ key: String, in text: String) -> String? {
        // Lines end at "\n" only, as their writers end them: a value may hold any other byte,
        // and U+0085 or U+2028 in one (which Swift counts as line breaks) must not start a line.
        for line in text.split(whereSeparator: { $0 == "\n" || $0 == "\r\n" }) where line.hasPrefix(key + "=") {
            var value = line.dropFirst(key.count + 1).trimmingWhitespaces()
            if value.count >= 2, let first = value.first, first == "\"" || first == "'", value.last == first {
                value = String(value.dropFirst().dropLast())
            }
            return value.isEmpty ? nil : value
        }
        return nil
    }
}
