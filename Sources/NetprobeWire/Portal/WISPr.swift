/// What a portal page says about itself in WISPr XML (the Wi-Fi Alliance's
/// "smart client" protocol): `<WISPAccessGatewayParam>` with a `<Redirect>` or
/// `<Proxy>` inside, usually hidden in an HTML comment of the login page.
public struct WISPrInfo: Sendable, Equatable {
    /// 100 = initial redirect (login needed), 110 = proxy notification, 120 = authentication notification, ...
    public var messageType: Int?
    /// 0 = no error, 200 = proxy detection, 255 = access gateway internal error, ...
    public var responseCode: Int?
    /// Where a WISPr client would submit credentials; for a person, the login page.
    public var loginURL: String?
    public var abortLoginURL: String?
    public var locationName: String?
    /// The venue's WISPr location id (e.g. "isocc=us,cc=1,ac=408,network=ACMEWISP").
    public var accessLocation: String?
    /// The WISPr version the gateway speaks ("1.0").
    public var accessProcedure: String?

    public init(messageType: Int? = nil, responseCode: Int? = nil, loginURL: String? = nil, abortLoginURL: String? = nil,
                locationName: String? = nil, accessLocation: String? = nil, accessProcedure: String? = nil) {
        self.messageType = messageType
        self.responseCode = responseCode
        self.loginURL = loginURL
        self.abortLoginURL = abortLoginURL
        self.locationName = locationName
        self.accessLocation = accessLocation
        self.accessProcedure = accessProcedure
    }
}

/// Reads WISPr XML out of a portal page, read-only.
///
/// A small strict scanner rather than Foundation's XMLParser: the XML sits inside
/// HTML (often inside a comment), so the page is never a well-formed document an
/// XML parser would accept; XMLParser on Linux is libxml2 behind FoundationXML,
/// one more C library whose DTD and entity handling we would have to switch off
/// and trust; and we need seven leaf values, not a tree. The scanner looks at no
/// more than `MarkupScanner.maxScanBytes`, takes the first gateway block, reads
/// only leaf elements (text or CDATA, no child elements), decodes only the five
/// predefined entities and numeric references, and drops values over 2 KiB.
public enum WISPrParser {
    public static func parse(_ body: [UInt8]) -> WISPrInfo? {
        let bytes = body.count > MarkupScanner.maxScanBytes ? Array(body.prefix(MarkupScanner.maxScanBytes)) : body
        guard let (start, end) = element("wispaccessgatewayparam", in: bytes, from: 0, end: bytes.count, allowChildren: true) else {
            return nil
        }
        func text(_ name: String) -> String? {
            guard let (from, to) = element(name, in: bytes, from: start, end: end, allowChildren: false) else { return nil }
            return leafText(bytes, from: from, to: to)
        }
        func number(_ name: String) -> Int? {
            guard let value = text(name), value.count <= 6, value.allSatisfy(\.isASCII) else { return nil }
            return Int(value)
        }
        let info = WISPrInfo(
            messageType: number("MessageType"), responseCode: number("ResponseCode"),
            loginURL: text("LoginURL"), abortLoginURL: text("AbortLoginURL"),
            locationName: text("LocationName"), accessLocation: text("AccessLocation"),
            accessProcedure: text("AccessProcedure"))
        return info == WISPrInfo() ? nil : info
    }

    /// The content range of the first element `name` in bytes[from..<end]: after its start
    /// tag, up to its end tag (or `end` when the block is cut off, for the outer element only).
    static func element(_ name: String, in bytes: [UInt8], from: Int, end: Int, allowChildren: Bool) -> (Int, Int)? {
        let open = MarkupScanner.bytes("<" + name)
        let close = MarkupScanner.bytes("</" + name)
        var search = from
        while let tag = MarkupScanner.find(open, in: bytes, from: search, end: end) {
            let after = tag + open.count
            search = after
            // "<LoginURL" must not match "<LoginURLs": the name ends at space, '>' or '/'.
            guard after < end, bytes[after] == 0x3E || bytes[after] == 0x2F || MarkupScanner.isSpace(bytes[after]) else { continue }
            guard let gt = bytes[after..<end].firstIndex(of: 0x3E) else { return nil }
            if bytes[gt - 1] == 0x2F { return (gt + 1, gt + 1) }  // <Name/>: present, empty
            let contentStart = gt + 1
            if let closing = MarkupScanner.find(close, in: bytes, from: contentStart, end: end) {
                return (contentStart, closing)
            }
            return allowChildren ? (contentStart, end) : nil
        }
        return nil
    }

    /// Text of a leaf element: character data with references decoded, CDATA verbatim,
    /// trimmed. nil for an element with child elements, comments or an unterminated CDATA,
    /// and for raw content too long to decode to an acceptable value.
    static func leafText(_ bytes: [UInt8], from: Int, to end: Int) -> String? {
        guard end - from <= 8 * MarkupScanner.maxValueBytes else { return nil }
        let cdataOpen = Array("<![CDATA[".utf8), cdataClose = Array("]]>".utf8)
        var out = ""
        var index = from
        while index < end {
            let lt = bytes[index..<end].firstIndex(of: 0x3C) ?? end
            guard let text = MarkupScanner.decodeReferences(bytes[index..<lt]) else { return nil }
            out += text
            if lt == end { break }
            guard bytes[lt..<end].starts(with: cdataOpen) else { return nil }
            let contentStart = lt + cdataOpen.count
            guard let contentEnd = MarkupScanner.find(cdataClose, in: bytes, from: contentStart, end: end),
                  let raw = String(validating: bytes[contentStart..<contentEnd], as: UTF8.self) else { return nil }
            out += raw
            index = contentEnd + cdataClose.count
        }
        let trimmed = MarkupScanner.trim(out)
        return trimmed.isEmpty || trimmed.utf8.count > MarkupScanner.maxValueBytes ? nil : trimmed
    }
}
