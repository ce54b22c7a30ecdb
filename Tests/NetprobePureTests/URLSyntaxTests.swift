@testable import NetprobeWire
@testable import NetprobeVerdict
@testable import NetprobeOutput
@testable import NetprobeReport
@testable import NetprobeSystem
@testable import NetprobeNetwork
@testable import NetprobeCheck
@testable import NetprobeWatch
import XCTest

/// RFC 3986 for the URLs netprobe is given: what passes, what is refused.
final class URLSyntaxTests: XCTestCase {
    func testValidURLs() {
        let valid = [
            "http://captive.apple.com/hotspot-detect.html",
            "https://www.google.com/generate_204",
            "http://127.0.0.1:8080/x?y=1&z=%2F#frag",
            "http://[::1]:8080/",
            "http://[2001:db8::1]/",
            "http://[::ffff:192.0.2.1]/",
            "http://[fe80::1%25eth0]/",
            "http://user:p%40ss@example.com/",
            "HTTP://Example.COM./a/b;c=d",
            "http://" + String(repeating: "a", count: 63) + ".example/",
        ]
        for url in valid {
            XCTAssertNotNil(URLSyntax.parse(url), url)
            XCTAssertNotNil(URLRules.httpHost(url), url)
        }
        XCTAssertEqual(URLRules.httpHost("HTTP://Example.COM:81/"), "example.com")
    }

    func testInvalidURLs() {
        let invalid = [
            "http://%zz/", "http://host/%zz", "http://host/%4", "http://host/a%",
            "http://[::1/", "http://::1/", "http://[::1]x/", "http://[1:2:3:4:5:6:7:8:9]/", "http://[1::2::3]/",
            "http://[v1.x]/", "http://[fe80::1%eth0]/", "http://ho[st/", "http://host]/",
            "http://" + String(repeating: "a", count: 64) + ".example/",
            "http://" + String(repeating: "abcdefgh.", count: 29) + "example/",
            "http://a..b/", "http:///path", "http://", "http://host:0/", "http://host:65536/", "http://host:/",
            "http://host:8o/", "http://ho st/", "http://host/a b", "http://hőst/", "http://host/\u{1B}[2J",
            "http://host/\"quoted\"", "http://host/<tag>", "http://host/a|b", "http://host/{x}", "http://host/a\\b",
            "ftp://host/", "//host/", "http:host", "1http://host/", "",
        ]
        for url in invalid {
            XCTAssertNil(URLRules.httpHost(url), url)
        }
    }

    /// Every printable ASCII byte in a path, a fragment, a host and a userinfo, against RFC 3986's
    /// classes written out here (unreserved, sub-delims, and what each position adds).
    func testEachByteInEachPosition() {
        let unreserved = Set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~".utf8)
        let subDelims = Set("!$&'()*+,;=".utf8)
        for byte in UInt8(0x21)...UInt8(0x7E) where byte != UInt8(ascii: "%") {
            let text = String(decoding: [byte], as: UTF8.self)
            let plain = unreserved.contains(byte) || subDelims.contains(byte)
            let pchar = plain || ":@/?".utf8.contains(byte)
            // In the path a "#" starts the fragment; in the fragment it is one too many.
            XCTAssertEqual(URLSyntax.parse("http://h/a\(text)b") != nil, pchar || byte == UInt8(ascii: "#"), "path: \(text)")
            XCTAssertEqual(URLSyntax.parse("http://h/#a\(text)b") != nil, pchar, "fragment: \(text)")
            // A host is reg-name bytes only ("/", "?" and "#" end it, ":" starts a port, "@" makes "a" a userinfo).
            let endsHost = "/?#".utf8.contains(byte)
            XCTAssertEqual(URLSyntax.parse("http://a\(text)b/") != nil, plain || endsHost || byte == UInt8(ascii: "@"), "host: \(text)")
            // A userinfo adds ":"; "@" is its end, so "a@b@h" is userinfo "a@b", refused.
            XCTAssertEqual(URLSyntax.parse("http://a\(text)b@h/") != nil, (plain || byte == UInt8(ascii: ":")) || endsHost,
                           "userinfo: \(text)")
        }
    }

    func testPortalURLsAreReadLeniently() {
        // A portal's Location is shown, not fetched: read as a browser would.
        XCTAssertNotNil(URLRules.httpHost("http://portal.example/login?a=b|c", strict: false))
        XCTAssertNil(URLRules.httpHost("http://portal.example/login?a=b|c"))
    }
}
