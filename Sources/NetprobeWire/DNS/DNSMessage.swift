/// The few DNS messages netprobe writes and reads itself (RFC 1035): a query for one name's
/// A or AAAA records, and the answer to it. Answers come from the network, so reading one
/// trusts nothing: every count, length and compression pointer is checked against the
/// message, pointers may only point backwards and are followed a bounded number of times, and
/// an answer counts only when its ID and question are the query's.
public enum DNSRecordType: UInt16, Sendable, CaseIterable {
    case a = 1
    case aaaa = 28

    public var family: AddressFamily { self == .a ? .ipv4 : .ipv6 }

    public init(_ family: AddressFamily) {
        self = family == .ipv4 ? .a : .aaaa
    }
}

/// Why an answer is not used.
public enum DNSError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The name cannot be asked (empty label, label over 63 bytes, name over 255 bytes).
    case badName
    /// The message is cut short, or a length or count points past its end.
    case truncatedMessage
    /// Not an answer to our query: another ID, not a response, or another question.
    case mismatch
    /// A compression pointer that points forward, at itself, or loops.
    case badPointer
    /// The server answered with an error code (2 SERVFAIL, 3 NXDOMAIN, 5 REFUSED, ...).
    case rcode(Int)

    public var description: String {
        switch self {
        case .badName: "the name cannot be asked in DNS"
        case .truncatedMessage: "the answer is cut short or malformed"
        case .mismatch: "the answer is not for the question asked"
        case .badPointer: "the answer has a bad compression pointer"
        case .rcode(let code): "the server answered \(DNSMessage.rcodeName(code))"
        }
    }
}

public struct DNSAnswer: Sendable, Equatable {
    /// TC: the answer did not fit in UDP; ask again over TCP.
    public var truncated: Bool
    /// The addresses of the asked type, as text, in the answer's order.
    public var addresses: [String]

    public init(truncated: Bool, addresses: [String]) {
        self.truncated = truncated
        self.addresses = addresses
    }
}

public enum DNSMessage {
    /// The most compression pointers one name may follow: more is a loop.
    static let maxJumps = 16
    /// The most records of each section read: a count above what the message can hold is
    /// refused by the bounds checks anyway; this keeps the work per message small.
    static let maxRecords = 64

    /// A recursive query (RD) for `name`'s records of `type`, class IN, with this ID.
    public static func query(id: UInt16, name: String, type: DNSRecordType) throws(DNSError) -> [UInt8] {
        var message: [UInt8] = [UInt8(id >> 8), UInt8(id & 0xFF), 0x01, 0x00, 0, 1, 0, 0, 0, 0, 0, 0]
        message += try encodedName(name)
        message += [UInt8(type.rawValue >> 8), UInt8(type.rawValue & 0xFF), 0, 1]
        return message
    }

    /// The name in wire format: length-prefixed labels, then the root's zero.
    static func encodedName(_ name: String) throws(DNSError) -> [UInt8] {
        var labels = Array(name.utf8.split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false))
        if labels.last?.isEmpty == true { labels.removeLast() }  // a trailing dot: the root
        guard !labels.isEmpty else { throw .badName }
        var wire: [UInt8] = []
        for label in labels {
            guard !label.isEmpty, label.count <= 63 else { throw .badName }
            wire.append(UInt8(label.count))
            wire += label
        }
        wire.append(0)
        guard wire.count <= 255 else { throw .badName }
        return wire
    }

    /// Reads an answer to `query(id:name:type:)`: its records of `type` for the name asked or
    /// for the names it is an alias of (CNAME chains within the answer are followed by
    /// accepting every record of the type: a resolver answers one name's chain only).
    public static func answer(_ message: [UInt8], id: UInt16, name: String, type: DNSRecordType) throws(DNSError) -> DNSAnswer {
        guard message.count >= 12 else { throw .truncatedMessage }
        let flags = UInt16(message[2]) << 8 | UInt16(message[3])
        guard UInt16(message[0]) << 8 | UInt16(message[1]) == id, flags & 0x8000 != 0, flags & 0x7800 == 0 else {
            throw .mismatch
        }
        let truncated = flags & 0x0200 != 0
        let questions = Int(readUInt16(message, 4)), answers = Int(readUInt16(message, 6))
        guard questions == 1 else { throw truncated && questions == 0 ? .truncatedMessage : .mismatch }
        var offset = 12
        let asked = try readName(message, &offset)
        guard offset + 4 <= message.count else { throw .truncatedMessage }
        guard sameName(asked, try encodedName(name)), readUInt16(message, offset) == type.rawValue,
              readUInt16(message, offset + 2) == 1 else { throw .mismatch }
        offset += 4
        let rcode = Int(flags & 0x000F)
        guard rcode == 0 else { throw .rcode(rcode) }
        var addresses: [String] = []
        for _ in 0..<min(answers, maxRecords) {
            _ = try readName(message, &offset)
            guard offset + 10 <= message.count else { throw .truncatedMessage }
            let recordType = readUInt16(message, offset), recordClass = readUInt16(message, offset + 2)
            let length = Int(readUInt16(message, offset + 8))
            offset += 10
            guard offset + length <= message.count else { throw .truncatedMessage }
            if recordClass == 1, recordType == type.rawValue, length == (type == .a ? 4 : 16) {
                addresses.append(IPAddressFormat.text(message[offset..<(offset + length)]))
            }
            offset += length
        }
        return DNSAnswer(truncated: truncated, addresses: addresses)
    }

    /// A name at `offset` in wire format (pointers expanded), with `offset` moved past it.
    static func readName(_ message: [UInt8], _ offset: inout Int) throws(DNSError) -> [UInt8] {
        var name: [UInt8] = []
        var position = offset
        var jumps = 0
        var resume: Int?
        while true {
            guard position < message.count else { throw .truncatedMessage }
            let length = Int(message[position])
            switch length & 0xC0 {
            case 0xC0:
                guard position + 1 < message.count else { throw .truncatedMessage }
                let target = (length & 0x3F) << 8 | Int(message[position + 1])
                // Only backwards: a pointer to itself or forward could loop or read ahead.
                guard target < position, jumps < maxJumps else { throw .badPointer }
                jumps += 1
                if resume == nil { resume = position + 2 }
                position = target
            case 0:
                if length == 0 {
                    name.append(0)
                    offset = resume ?? position + 1
                    guard name.count <= 255 else { throw .truncatedMessage }
                    return name
                }
                guard position + 1 + length <= message.count else { throw .truncatedMessage }
                name.append(UInt8(length))
                name += message[(position + 1)...(position + length)]
                guard name.count <= 255 else { throw .truncatedMessage }
                position += 1 + length
            default:
                // 0x40 and 0x80: extended label types, not used in answers to A/AAAA.
                throw .truncatedMessage
            }
        }
    }

    /// DNS names compare without regard to ASCII case (RFC 4343).
    static func sameName(_ a: [UInt8], _ b: [UInt8]) -> Bool {
        guard a.count == b.count else { return false }
        for (x, y) in zip(a, b) where lowercased(x) != lowercased(y) { return false }
        return true
    }

    private static func lowercased(_ byte: UInt8) -> UInt8 {
        byte >= 0x41 && byte <= 0x5A ? byte | 0x20 : byte
    }

    static func readUInt16(_ message: [UInt8], _ offset: Int) -> UInt16 {
        UInt16(message[offset]) << 8 | UInt16(message[offset + 1])
    }

    static func rcodeName(_ code: Int) -> String {
        switch code {
        case 1: "FORMERR"
        case 2: "SERVFAIL"
        case 3: "NXDOMAIN"
        case 4: "NOTIMP"
        case 5: "REFUSED"
        default: "RCODE \(code)"
        }
    }
}
