#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// RFC 3339 UTC timestamps, formatted by hand: Foundation's ISO8601DateFormatter loads
/// ICU's data on first use, which cost every run about 4 MB of memory and 10 ms.
public enum Timestamp {
    public static func iso8601(_ date: Date, fractional: Bool = true) -> String {
        let millisSinceEpoch = Int64((date.timeIntervalSince1970 * 1000).rounded(.down))
        let (days, millisOfDay) = millisSinceEpoch.floorDivided(by: 86_400_000)
        let (year, month, day) = civil(fromDays: days)
        let seconds = millisOfDay / 1000
        var text = "\(pad(year, 4))-\(pad(month, 2))-\(pad(day, 2))"
            + "T\(pad(seconds / 3600, 2)):\(pad(seconds / 60 % 60, 2)):\(pad(seconds % 60, 2))"
        if fractional { text += "." + pad(millisOfDay % 1000, 3) }
        return text + "Z"
    }

    /// Days since 1970-01-01 to a proleptic Gregorian date (Howard Hinnant's civil_from_days).
    package static func civil(fromDays days: Int64) -> (year: Int64, month: Int64, day: Int64) {
        let shifted = days + 719_468
        let era = (shifted >= 0 ? shifted : shifted - 146_096) / 146_097
        let dayOfEra = shifted - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthIndex = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * monthIndex + 2) / 5 + 1
        let month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }

    private static func pad(_ value: Int64, _ width: Int) -> String {
        let digits = String(value)
        return String(repeating: "0", count: max(0, width - digits.count)) + digits
    }
}

extension Int64 {
    /// Quotient rounded toward minus infinity and a non-negative remainder (dates before 1970 too).
    fileprivate func floorDivided(by divisor: Int64) -> (Int64, Int64) {
        let remainder = ((self % divisor) + divisor) % divisor
        return ((self - remainder) / divisor, remainder)
    }
}
