import ArgumentParser
import NetprobeWire
import NetprobeVerdict
import NetprobeOutput
import NetprobeReport
import NetprobeSystem
import NetprobeNetwork
import NetprobeCheck
import NetprobeWatch

/// Durations on the command line: plain decimal seconds and nothing else.
///
/// `Double(_:)` alone would take `0x10` (16), `1e3`, `nan`, `inf` and `-0`: a value
/// another program built by mistake would silently become a different deadline. So the
/// text must be digits with at most one decimal point, and the value must lie in the
/// option's range; the message names the option and the range.
struct Seconds: Sendable {
    /// Above `lower` (or at it, when `includesLower`), at most `upper`.
    let lower: Double
    let includesLower: Bool
    let upper: Double

    static let timeout = Seconds(lower: 0, includesLower: false, upper: 86_400)
    static let interval = Seconds(lower: 0.1, includesLower: true, upper: 604_800)
    static let execTimeout = Seconds(lower: 0, includesLower: false, upper: 86_400)
    static let hold = Seconds(lower: 0, includesLower: true, upper: 3_600)
    static let sessionWarning = Seconds(lower: 0, includesLower: true, upper: 86_400)
    static let heartbeat = Seconds(lower: 0, includesLower: true, upper: 86_400)

    /// "above 0 and at most 86400" / "at least 0.1 and at most 604800".
    var range: String {
        "\(includesLower ? "at least" : "above") \(Self.show(lower)) and at most \(Self.show(upper))"
    }

    /// For `@Option(transform:)`: the value, or an error saying what is accepted.
    func parse(_ option: String) -> @Sendable (String) throws -> Double {
        { text in try value(of: text, option: option) }
    }

    /// The parser's message already names the option and quotes the value ("The value '-1' is
    /// invalid for '--timeout <seconds>': ..."); `option` is for callers outside it.
    func value(of text: String, option: String) throws -> Double {
        let magnitude = text.hasPrefix("-") ? text.dropFirst() : Substring(text)
        guard Self.isDecimal(magnitude), let parsed = Double(magnitude) else {
            throw ValidationError("not a number of seconds (decimal digits and an optional fraction, such as 2 or 0.5); "
                + "accepted for \(option): \(range) seconds.")
        }
        let number = text.hasPrefix("-") ? -parsed : parsed
        guard (includesLower ? number >= lower : number > lower) && number <= upper else {
            throw ValidationError("out of range; accepted for \(option): \(range) seconds.")
        }
        return number
    }

    /// `12`, `12.5`, `.5`, `12.`: ASCII digits, at most one point, at least one digit, at most 32 characters.
    static func isDecimal(_ text: Substring) -> Bool {
        guard !text.isEmpty, text.utf8.count <= 32 else { return false }
        var digits = 0, points = 0
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digits += 1
            case UInt8(ascii: "."): points += 1
            default: return false
            }
        }
        return digits > 0 && points <= 1
    }

    private static func show(_ value: Double) -> String {
        value.rounded() == value ? String(Int(value)) : String(value)
    }
}
