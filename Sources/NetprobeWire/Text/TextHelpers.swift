#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Formatting and trimming helpers that FoundationEssentials lacks (String(format:) and
/// trimmingCharacters(in:) live in full Foundation, which costs ~7 MB and ICU at startup).
public enum TextHelpers {
    /// printf's "%.<decimals>f" for finite values: exact round-half-to-even on the binary
    /// value, like glibc, so "%.0f" of 2.5 is "2" and of 3.5 is "4".
    public static func fixed(_ value: Double, decimals: Int) -> String {
        if value.isNaN { return value.sign == .minus ? "-nan" : "nan" }
        if value.isInfinite { return value < 0 ? "-inf" : "inf" }
        let sign = value.sign == .minus ? "-" : ""
        let magnitude = abs(value)
        let zeros = String(repeating: "0", count: decimals)
        // From 2^52 on every Double is an integer: no fraction to round.
        if magnitude >= 4_503_599_627_370_496 {
            return sign + integerDigits(magnitude) + (decimals > 0 ? "." + zeros : "")
        }
        var whole = magnitude.rounded(.down)
        let fraction = magnitude - whole  // exact below 2^52
        let scale = pow10(decimals)
        let scaled = fraction * scale
        // The product's rounding error, exactly (FMA), decides ties the product alone would hide.
        let error = (-scaled).addingProduct(fraction, scale)
        var units = scaled.rounded(.down)
        let rest = scaled - units
        let up = rest > 0.5 || (rest == 0.5 && (error > 0 || (error == 0 && roundsHalfUp(units, whole, decimals))))
        if up { units += 1 }
        if units >= scale {
            units -= scale
            whole += 1
        }
        var text = sign + String(UInt64(whole))
        if decimals > 0 {
            let digits = String(UInt64(units))
            text += "." + String(repeating: "0", count: decimals - digits.count) + digits
        }
        return text
    }

    /// printf's "%0<width>d".
    public static func zeroPadded(_ value: Int, width: Int) -> String {
        let digits = String(value.magnitude)
        let padding = String(repeating: "0", count: max(0, width - digits.count - (value < 0 ? 1 : 0)))
        return (value < 0 ? "-" : "") + padding + digits
    }

    /// Left-aligned in a field of `width` characters (names are ASCII, so characters are columns).
    public static func padded(_ text: String, to width: Int) -> String {
        let count = text.count
        return count >= width ? text : text + String(repeating: " ", count: width - count)
    }

    /// Ties go to the even neighbour: the last kept digit, or the integer part when none is kept.
    private static func roundsHalfUp(_ units: Double, _ whole: Double, _ decimals: Int) -> Bool {
        let last = decimals == 0 ? whole : units
        return last.truncatingRemainder(dividingBy: 2) == 1
    }

    private static func pow10(_ exponent: Int) -> Double {
        var result = 1.0
        for _ in 0..<exponent { result *= 10 }
        return result
    }

    /// Exact decimal digits of an integral Double of any size (significand times a power of two).
    private static func integerDigits(_ value: Double) -> String {
        if value < 18_446_744_073_709_551_616 { return String(UInt64(value)) }
        var limbs: [UInt32] = []  // base 10^9, least significant first
        var significand = value.significandBitPattern | (1 << 52)
        while significand > 0 {
            limbs.append(UInt32(significand % 1_000_000_000))
            significand /= 1_000_000_000
        }
        for _ in 0..<(Int(value.exponent) - 52) {
            var carry: UInt64 = 0
            for index in limbs.indices {
                let doubled = UInt64(limbs[index]) * 2 + carry
                limbs[index] = UInt32(doubled % 1_000_000_000)
                carry = doubled / 1_000_000_000
            }
            if carry > 0 { limbs.append(UInt32(carry)) }
        }
        var text = String(limbs.last ?? 0)
        for limb in limbs.dropLast().reversed() {
            let part = String(limb)
            text += String(repeating: "0", count: 9 - part.count) + part
        }
        return text
    }
}

extension StringProtocol where UTF8View: BidirectionalCollection {
    /// The text without the ASCII bytes `isTrimmed` picks at either end, cut on the UTF-8
    /// view (an ASCII byte is never part of a longer sequence, so the rest stays valid).
    /// (Trimming Characters, reversing them twice, is far slower.)
    /// Inlinable, so callers in other modules get it specialized for their String or
    /// Substring: unspecialized, its first call built the views' types at run time (0.2M).
    @inlinable
    public func trimmingASCII(where isTrimmed: (UInt8) -> Bool) -> String {
        let bytes = utf8
        guard let first = bytes.firstIndex(where: { !isTrimmed($0) }),
              let last = bytes.lastIndex(where: { !isTrimmed($0) }) else { return "" }
        return String(decoding: bytes[first...last], as: UTF8.self)
    }

    /// Space and tab trimmed: HTTP's optional whitespace (RFC 9110, 5.6.3).
    @inlinable
    public var trimmingSpacesAndTabs: String {
        trimmingASCII { $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\t") }
    }
}

extension StringProtocol {
    /// Foundation's trimmingCharacters(in: .whitespaces): tab and the Unicode space separators (Zs).
    public func trimmingWhitespaces() -> String {
        func isSpace(_ scalar: Unicode.Scalar) -> Bool {
            scalar == "\t" || scalar.properties.generalCategory == .spaceSeparator
        }
        let scalars = unicodeScalars
        guard let first = scalars.firstIndex(where: { !isSpace($0) }),
              let last = scalars.lastIndex(where: { !isSpace($0) }) else { return "" }
        return String(String.UnicodeScalarView(scalars[first...last]))
    }
}

/// Lower-case hexadecimal digits as ASCII bytes, for text written byte by byte (hardware
/// addresses, JSON's `\u00xx`, the DNS canary's label): no String(radix:), no table to build.
public enum HexDigit {
    /// The digit for `value`, which must be 0...15.
    @inlinable
    public static func lowercase(_ value: UInt8) -> UInt8 {
        value < 10 ? UInt8(ascii: "0") + value : UInt8(ascii: "a") + value - 10
    }
}
