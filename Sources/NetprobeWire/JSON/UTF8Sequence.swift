/// RFC 3629's well-formed UTF-8 sequences (no overlong forms, no surrogates, nothing above
/// U+10FFFF): the rule the JSON reader applies to the bytes of a string, built or skipped.
enum UTF8Sequence {
    enum Check: Equatable {
        case valid(length: Int)
        /// The byte at the start cannot begin a sequence.
        case badLead(UInt8)
        /// The text ends inside the sequence.
        case endsInside
        /// A byte after the lead is not the continuation the lead allows.
        case badContinuation(UInt8)
    }

    static func check<Bytes: RandomAccessCollection<UInt8>>(_ bytes: Bytes, at start: Int) -> Check where Bytes.Index == Int {
        let lead = bytes[start]
        let length: Int
        var second: ClosedRange<UInt8> = 0x80...0xBF
        switch lead {
        case 0xC2...0xDF: length = 2
        case 0xE0: length = 3; second = 0xA0...0xBF
        case 0xED: length = 3; second = 0x80...0x9F
        case 0xE1...0xEF: length = 3
        case 0xF0: length = 4; second = 0x90...0xBF
        case 0xF1...0xF3: length = 4
        case 0xF4: length = 4; second = 0x80...0x8F
        default: return .badLead(lead)
        }
        for offset in 1..<length {
            guard start + offset < bytes.endIndex else { return .endsInside }
            let byte = bytes[start + offset]
            guard (offset == 1 ? second : 0x80...0xBF).contains(byte) else { return .badContinuation(byte) }
        }
        return .valid(length: length)
    }
}
