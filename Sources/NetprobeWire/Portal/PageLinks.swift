/// Where a portal page sends the browser on its own: `<meta http-equiv="refresh">`
/// and the usual one-line script redirects. Read-only and bounded like WISPr: the
/// results are raw link text, resolved against the probe URL by `PortalLocator`.
public enum MetaRefresh {
    /// The URL of the first `<meta http-equiv="refresh" content="N; url=...">` outside
    /// comments and scripts, as written (entities decoded); nil when there is none or it has no URL.
    public static func target(in body: [UInt8]) -> String? {
        let bytes = body.count > MarkupScanner.maxScanBytes ? Array(body.prefix(MarkupScanner.maxScanBytes)) : body
        var index = 0
        while let lt = bytes[index...].firstIndex(of: 0x3C) {
            index = lt + 1
            if bytes[lt...].starts(with: Array("<!--".utf8)) {
                // Skip the comment: a meta tag inside one is not in effect.
                guard let close = MarkupScanner.find(Array("-->".utf8), in: bytes, from: lt + 4) else { return nil }
                index = close + 3
            } else if let (after, close) = rawTextElement(bytes, lt) {
                // Script and style text is not markup: a "<meta" in a string there does nothing.
                guard let end = MarkupScanner.find(MarkupScanner.bytes(close), in: bytes, from: after) else { return nil }
                index = end + 2
            } else if let after = tagName("meta", bytes, lt) {
                let (attributes, next) = Self.attributes(bytes, from: after)
                index = next
                if attributes["http-equiv"].map({ MarkupScanner.trim($0).lowercased() }) == "refresh",
                   let content = attributes["content"], let url = url(fromRefresh: content) {
                    return url
                }
            }
        }
        return nil
    }

    static func rawTextElement(_ bytes: [UInt8], _ lt: Int) -> (Int, String)? {
        if let after = tagName("script", bytes, lt) { return (after, "</script") }
        if let after = tagName("style", bytes, lt) { return (after, "</style") }
        return nil
    }

    /// The index after `<name` when a tag `name` starts at `lt`.
    static func tagName(_ name: String, _ bytes: [UInt8], _ lt: Int) -> Int? {
        let wanted = MarkupScanner.bytes(name)
        let after = lt + 1 + wanted.count
        guard after < bytes.count, MarkupScanner.find(wanted, in: bytes, from: lt + 1, end: after) == lt + 1,
              MarkupScanner.isSpace(bytes[after]) || bytes[after] == 0x3E || bytes[after] == 0x2F else { return nil }
        return after
    }

    /// Attributes of a tag (names lower-cased, values decoded) up to its '>', and the index after it.
    static func attributes(_ bytes: [UInt8], from start: Int) -> ([String: String], Int) {
        var result: [String: String] = [:]
        var index = start
        func skipSpace() { while index < bytes.count && (MarkupScanner.isSpace(bytes[index]) || bytes[index] == 0x2F) { index += 1 } }
        while result.count < 32 {
            skipSpace()
            guard index < bytes.count, bytes[index] != 0x3E else { break }
            let nameStart = index
            while index < bytes.count, !MarkupScanner.isSpace(bytes[index]), bytes[index] != 0x3D, bytes[index] != 0x3E { index += 1 }
            let name = String(decoding: bytes[nameStart..<index], as: UTF8.self).lowercased()
            while index < bytes.count && MarkupScanner.isSpace(bytes[index]) { index += 1 }
            var value = ""
            if index < bytes.count, bytes[index] == 0x3D {
                index += 1
                while index < bytes.count && MarkupScanner.isSpace(bytes[index]) { index += 1 }
                let valueStart: Int, valueEnd: Int
                if index < bytes.count, bytes[index] == 0x22 || bytes[index] == 0x27 {
                    let quote = bytes[index]
                    valueStart = index + 1
                    valueEnd = bytes[valueStart...].firstIndex(of: quote) ?? bytes.count
                    index = min(valueEnd + 1, bytes.count)
                } else {
                    valueStart = index
                    while index < bytes.count, !MarkupScanner.isSpace(bytes[index]), bytes[index] != 0x3E { index += 1 }
                    valueEnd = index
                }
                value = MarkupScanner.decodeReferences(bytes[valueStart..<valueEnd]) ?? ""
            }
            if !name.isEmpty && result[name] == nil { result[name] = value }
        }
        guard let gt = bytes[min(index, bytes.count)...].firstIndex(of: 0x3E) else { return (result, bytes.count) }
        return (result, gt + 1)
    }

    /// The URL in a refresh value such as `0; url=/login`, `5,URL='x'` or `0; http://x`
    /// (HTML's "shared declarative refresh steps"); nil when it only reloads the page.
    public static func url(fromRefresh content: String) -> String? {
        var rest = Substring(content)
        rest = rest.drop { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" }
        rest = rest.drop { $0.isASCII && ($0.isNumber || $0 == ".") }
        rest = rest.drop { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" }
        if rest.first == ";" || rest.first == "," { rest = rest.dropFirst() }
        rest = rest.drop { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" }
        if rest.lowercased().hasPrefix("url") {
            let afterURL = rest.dropFirst(3).drop { $0 == " " || $0 == "\t" }
            if afterURL.first == "=" {
                rest = afterURL.dropFirst().drop { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" }
            }
        }
        var url: Substring
        if let quote = rest.first, quote == "\"" || quote == "'" {
            url = rest.dropFirst().prefix { $0 != quote }
        } else {
            url = rest
        }
        let trimmed = MarkupScanner.trim(String(url))
        return trimmed.isEmpty ? nil : trimmed
    }
}

/// One-line script redirects portals use instead of a 302: `window.location = "..."`,
/// `location.href='...'`, `location.replace("...")`, `location.assign("...")`.
public enum ScriptRedirect {
    public static func target(in body: [UInt8]) -> String? {
        let bytes = body.count > MarkupScanner.maxScanBytes ? Array(body.prefix(MarkupScanner.maxScanBytes)) : body
        let needle = Array("location".utf8)
        var search = 0
        while let hit = MarkupScanner.find(needle, in: bytes, from: search) {
            search = hit + needle.count
            var index = search
            func skipSpace() { while index < bytes.count && (bytes[index] == 0x20 || bytes[index] == 0x09) { index += 1 } }
            func consume(_ text: String) -> Bool {
                let wanted = Array(text.utf8)
                guard bytes[index...].starts(with: wanted) else { return false }
                index += wanted.count
                return true
            }
            skipSpace()
            _ = consume(".href")
            skipSpace()
            if consume("=") {
                if index < bytes.count && bytes[index] == 0x3D { continue }  // "==": a comparison
            } else if !(consume(".replace(") || consume(".assign(")) {
                continue
            }
            skipSpace()
            guard index < bytes.count, bytes[index] == 0x22 || bytes[index] == 0x27 else { continue }
            let quote = bytes[index]
            let start = index + 1
            var end = start
            while end < bytes.count, end - start <= MarkupScanner.maxValueBytes, bytes[end] != quote, bytes[end] != 0x0A, bytes[end] != 0x5C {
                end += 1
            }
            guard end < bytes.count, bytes[end] == quote, end > start,
                  let text = String(validating: bytes[start..<end], as: UTF8.self) else { continue }
            return text
        }
        return nil
    }
}
