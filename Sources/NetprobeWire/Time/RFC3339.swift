/// RFC 3339 date-times (`2026-11-22T10:00:07.123Z`, `2026-11-22t12:00:07+02:00`) to
/// milliseconds since the epoch, UTC. By hand for the reason Timestamp formats by hand (no ICU
/// on first use), and strict because the text comes from files anyone may have edited: the
/// exact grammar of RFC 3339 §5.6, real calendar dates, no surrounding space. Digits past the
/// millisecond are read and dropped (watch writes milliseconds). A leap second (:60) counts as
/// the first second of the next minute: ordering is all the summary needs. Instants outside
/// the years 0000 to 9999 in UTC are refused.
public enum RFC3339 {
    public static func milliseconds(_ text: String) -> Int64? {
        var text = text
        return text.withUTF8 { parse($0) }
    }

    public static func parse(_ bytes: UnsafeBufferPointer<UInt8>) -> Int64? {
        // The shortest form is `YYYY-MM-DDTHH:MM:SSZ` (20 bytes); nothing legitimate is near 64.
        guard bytes.count >= 20, bytes.count <= 64 else { return nil }
        var index = 0
        func digits(_ count: Int) -> Int64? {
            guard index + count <= bytes.count else { return nil }
            var value: Int64 = 0
            for _ in 0..<count {
                let byte = bytes[index]
                guard byte >= 0x30, byte <= 0x39 else { return nil }
                value = value * 10 + Int64(byte - 0x30)
                index += 1
            }
            return value
        }
        func expect(_ byte: UInt8, or other: UInt8? = nil) -> Bool {
            guard index < bytes.count, bytes[index] == byte || bytes[index] == other else { return false }
            index += 1
            return true
        }
        guard let year = digits(4), expect(UInt8(ascii: "-")),
              let month = digits(2), expect(UInt8(ascii: "-")),
              let day = digits(2), expect(UInt8(ascii: "T"), or: UInt8(ascii: "t")),
              let hour = digits(2), expect(UInt8(ascii: ":")),
              let minute = digits(2), expect(UInt8(ascii: ":")),
              let second = digits(2)
        else { return nil }
        guard (1...12).contains(month), day >= 1, day <= daysIn(month: month, year: year),
              hour <= 23, minute <= 59, second <= 60
        else { return nil }
        var millis: Int64 = 0
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            index += 1
            var count = 0
            while index < bytes.count, bytes[index] >= 0x30, bytes[index] <= 0x39 {
                if count < 3 { millis = millis * 10 + Int64(bytes[index] - 0x30) }
                count += 1
                index += 1
            }
            guard count > 0 else { return nil }
            for _ in count..<max(count, 3) { millis *= 10 }
        }
        guard index < bytes.count else { return nil }
        var offsetMinutes: Int64 = 0
        switch bytes[index] {
        case UInt8(ascii: "Z"), UInt8(ascii: "z"):
            index += 1
        case UInt8(ascii: "+"), UInt8(ascii: "-"):
            let sign: Int64 = bytes[index] == UInt8(ascii: "-") ? -1 : 1
            index += 1
            guard let hours = digits(2), expect(UInt8(ascii: ":")), let minutes = digits(2),
                  hours <= 23, minutes <= 59
            else { return nil }
            offsetMinutes = sign * (hours * 60 + minutes)
        default:
            return nil
        }
        guard index == bytes.count else { return nil }
        let days = daysFromCivil(year: year, month: month, day: day)
        let seconds = days * 86_400 + hour * 3600 + minute * 60 + second - offsetMinutes * 60
        let ms = seconds * 1000 + millis
        // An offset can carry 0000-01-01 or 9999-12-31 out of four-digit years in UTC, where
        // no RFC 3339 text names the instant any more: refused, so every time read can be written.
        return range.contains(ms) ? ms : nil
    }

    /// 0000-01-01T00:00:00Z to 9999-12-31T23:59:59.999Z.
    static let range = (daysFromCivil(year: 0, month: 1, day: 1) * 86_400_000)...(daysFromCivil(year: 10_000, month: 1, day: 1) * 86_400_000 - 1)

    static func daysIn(month: Int64, year: Int64) -> Int64 {
        switch month {
        case 2: return (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

    /// Howard Hinnant's days_from_civil, the inverse of Timestamp.civil(fromDays:).
    static func daysFromCivil(year: Int64, month: Int64, day: Int64) -> Int64 {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }
}
