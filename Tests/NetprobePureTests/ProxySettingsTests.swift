@testable import NetprobeWire
import NetprobeVerdict
import NetprobeOutput
import NetprobeReport
import NetprobeSystem
import NetprobeNetwork
import NetprobeCheck
import NetprobeWatch
import Testing

/// Proxy selection as curl makes it (checked against libcurl 7.88's behaviour with the
/// curl tool), URL validation and redaction.
@Suite struct ProxySettingsTests {
    struct Selection: Sendable, CustomTestStringConvertible {
        var label: String
        var env: [String: String]
        var url: String
        var expected: String?  // the proxy's redacted URL, nil = direct
        var testDescription: String { label }
    }

    static let proxyA = "http://a.example:3128"
    static let proxyB = "http://b.example:8080"
    static let proxyC = "socks5h://c.example:1080"

    static let selections: [Selection] = [
        Selection(label: "no variables: direct", env: [:], url: "http://captive.apple.com/", expected: nil),
        Selection(label: "http_proxy for http", env: ["http_proxy": proxyA], url: "http://captive.apple.com/", expected: proxyA),
        Selection(label: "HTTP_PROXY is ignored (httpoxy)", env: ["HTTP_PROXY": proxyA], url: "http://captive.apple.com/", expected: nil),
        Selection(label: "http_proxy is not for https", env: ["http_proxy": proxyA], url: "https://www.google.com/", expected: nil),
        Selection(label: "https_proxy for https", env: ["https_proxy": proxyB], url: "https://www.google.com/", expected: proxyB),
        Selection(label: "HTTPS_PROXY for https", env: ["HTTPS_PROXY": proxyB], url: "https://www.google.com/", expected: proxyB),
        Selection(label: "lower case wins over upper case", env: ["https_proxy": proxyA, "HTTPS_PROXY": proxyB],
                  url: "https://www.google.com/", expected: proxyA),
        Selection(label: "https_proxy is not for http", env: ["https_proxy": proxyB], url: "http://captive.apple.com/", expected: nil),
        Selection(label: "all_proxy as fallback", env: ["all_proxy": proxyC], url: "http://captive.apple.com/", expected: proxyC),
        Selection(label: "ALL_PROXY as fallback", env: ["ALL_PROXY": proxyC], url: "https://www.google.com/", expected: proxyC),
        Selection(label: "scheme variable wins over all_proxy", env: ["http_proxy": proxyA, "all_proxy": proxyC],
                  url: "http://captive.apple.com/", expected: proxyA),
        Selection(label: "HTTP_PROXY does not hide all_proxy", env: ["HTTP_PROXY": proxyA, "all_proxy": proxyC],
                  url: "http://captive.apple.com/", expected: proxyC),
        Selection(label: "empty variable is unset", env: ["http_proxy": "", "all_proxy": proxyC],
                  url: "http://captive.apple.com/", expected: proxyC),
        Selection(label: "scheme of the URL is case-insensitive", env: ["https_proxy": proxyB], url: "HTTPS://www.google.com/", expected: proxyB),
        Selection(label: "not an http(s) URL: direct", env: ["all_proxy": proxyC], url: "ftp://example.com/", expected: nil),
        Selection(label: "scheme-less proxy means http", env: ["http_proxy": "a.example:3128"], url: "http://captive.apple.com/", expected: proxyA),
        // NO_PROXY
        Selection(label: "NO_PROXY exact host", env: ["http_proxy": proxyA, "NO_PROXY": "captive.apple.com"],
                  url: "http://captive.apple.com/", expected: nil),
        Selection(label: "no_proxy wins over NO_PROXY", env: ["http_proxy": proxyA, "no_proxy": "other.example", "NO_PROXY": "captive.apple.com"],
                  url: "http://captive.apple.com/", expected: proxyA),
        Selection(label: "empty no_proxy falls back to NO_PROXY", env: ["http_proxy": proxyA, "no_proxy": "", "NO_PROXY": "captive.apple.com"],
                  url: "http://captive.apple.com/", expected: nil),
        Selection(label: "NO_PROXY domain suffix", env: ["http_proxy": proxyA, "no_proxy": "apple.com"],
                  url: "http://captive.apple.com/", expected: nil),
        Selection(label: "NO_PROXY domain with leading dot", env: ["http_proxy": proxyA, "no_proxy": ".apple.com"],
                  url: "http://captive.apple.com/", expected: nil),
        Selection(label: "NO_PROXY suffix only on a label boundary", env: ["http_proxy": proxyA, "no_proxy": "ple.com"],
                  url: "http://captive.apple.com/", expected: proxyA),
        Selection(label: "NO_PROXY case-insensitive, trailing dots", env: ["http_proxy": proxyA, "no_proxy": "APPLE.COM."],
                  url: "http://Captive.Apple.com./", expected: nil),
        Selection(label: "NO_PROXY list with blanks", env: ["http_proxy": proxyA, "no_proxy": "localhost, .example.org ,apple.com"],
                  url: "http://captive.apple.com/", expected: nil),
        Selection(label: "NO_PROXY blank-separated (libcurl 7.88)", env: ["http_proxy": proxyA, "no_proxy": "localhost apple.com"],
                  url: "http://captive.apple.com/", expected: nil),
        Selection(label: "NO_PROXY *", env: ["https_proxy": proxyB, "NO_PROXY": "*"], url: "https://www.google.com/", expected: nil),
        Selection(label: "NO_PROXY * inside a list is no wildcard", env: ["https_proxy": proxyB, "NO_PROXY": "*,foo"],
                  url: "https://www.google.com/", expected: proxyB),
        Selection(label: "NO_PROXY entry with a port matches nothing", env: ["http_proxy": proxyA, "no_proxy": "captive.apple.com:80"],
                  url: "http://captive.apple.com/", expected: proxyA),
        Selection(label: "NO_PROXY ignores the URL's port", env: ["http_proxy": proxyA, "no_proxy": "captive.apple.com"],
                  url: "http://captive.apple.com:8080/", expected: nil),
        Selection(label: "NO_PROXY IPv4 address", env: ["http_proxy": proxyA, "no_proxy": "192.0.2.7"],
                  url: "http://192.0.2.7/", expected: nil),
        Selection(label: "NO_PROXY IPv4 CIDR", env: ["http_proxy": proxyA, "no_proxy": "192.0.2.0/24"],
                  url: "http://192.0.2.7/", expected: nil),
        Selection(label: "NO_PROXY IPv4 CIDR miss", env: ["http_proxy": proxyA, "no_proxy": "192.0.3.0/24"],
                  url: "http://192.0.2.7/", expected: proxyA),
        Selection(label: "NO_PROXY IPv6 address", env: ["http_proxy": proxyA, "no_proxy": "2001:db8::1"],
                  url: "http://[2001:db8::1]/", expected: nil),
        Selection(label: "NO_PROXY IPv6 CIDR", env: ["http_proxy": proxyA, "no_proxy": "2001:db8::/32"],
                  url: "http://[2001:db8:5::9]:8080/", expected: nil),
        Selection(label: "NO_PROXY names are not compared with addresses", env: ["http_proxy": proxyA, "no_proxy": "localhost"],
                  url: "http://127.0.0.1/", expected: proxyA),
        Selection(label: "NO_PROXY suffix is not an address match", env: ["http_proxy": proxyA, "no_proxy": "0.2.7"],
                  url: "http://192.0.2.7/", expected: proxyA),
        Selection(label: "NO_PROXY without any proxy: direct", env: ["NO_PROXY": "other.example"], url: "http://captive.apple.com/", expected: nil),
    ]

    @Test(arguments: selections)
    func environmentSelection(_ row: Selection) throws {
        let settings = ProxySettings(choice: .environment, environment: row.env)
        #expect(try settings.proxy(for: row.url)?.redacted == row.expected)
    }

    /// The CLI hands over only `variableNames` (read with getenv, not by copying the whole environment): every selection
    /// must come out the same from just those as from the whole environment.
    @Test(arguments: selections)
    func theNamedVariablesAreAllThatMatter(_ selection: Selection) throws {
        var everything = selection.env
        everything["PATH"] = "/usr/bin"
        everything["HTTP_PROXY"] = everything["HTTP_PROXY"] ?? "http://ignored.example:1"
        let named = everything.filter { ProxySettings.variableNames.contains($0.key) }
        let full = try ProxySettings(choice: .environment, environment: everything).proxy(for: selection.url)
        let filtered = try ProxySettings(choice: .environment, environment: named).proxy(for: selection.url)
        #expect(full?.redacted == filtered?.redacted)
    }

    @Test func explicitProxyIgnoresTheEnvironment() throws {
        let env = ["http_proxy": Self.proxyA, "NO_PROXY": "*"]
        let settings = try ProxySettings(proxyOption: "http://user:secret@p.example:3128", noProxy: false, environment: env)
        #expect(try settings.proxy(for: "http://captive.apple.com/")?.url == "http://user:secret@p.example:3128")
        #expect(try settings.proxy(for: "https://www.google.com/")?.redacted == "http://p.example:3128")
    }

    @Test func noProxyIsDirectWhateverTheEnvironment() throws {
        let env = ["http_proxy": Self.proxyA, "https_proxy": Self.proxyB, "ALL_PROXY": Self.proxyC]
        let settings = try ProxySettings(proxyOption: nil, noProxy: true, environment: env)
        #expect(settings.choice == .none)
        #expect(try settings.proxy(for: "http://captive.apple.com/") == nil)
        #expect(try settings.proxy(for: "https://www.google.com/") == nil)
    }

    @Test func defaultIsTheEnvironment() throws {
        let settings = try ProxySettings(proxyOption: nil, noProxy: false, environment: ["http_proxy": Self.proxyA])
        #expect(settings.choice == .environment)
        #expect(try settings.proxy(for: "http://captive.apple.com/")?.redacted == Self.proxyA)
    }

    @Test func badEnvironmentProxyNamesTheVariable() throws {
        let settings = ProxySettings(environment: ["https_proxy": "ftp://user:pw@x.example"])
        #expect(throws: ProxyURLError(source: "https_proxy", value: "ftp://x.example", problem:
            "unsupported scheme 'ftp' (use http, https, socks4, socks4a, socks5, socks5h)")) {
            try settings.validate()
        }
        // A bad variable a URL does not use is not its problem.
        #expect(try settings.proxy(for: "http://captive.apple.com/") == nil)
        #expect(throws: ProxyURLError.self) { try settings.proxy(for: "https://www.google.com/") }
    }

    @Test func badOptionIsAnError() {
        #expect(throws: ProxyURLError.self) { try ProxySettings(proxyOption: "gopher://p:70", noProxy: false, environment: [:]) }
    }
}

/// `ProxyURL`: what parses, what it becomes, and that credentials never show.
@Suite struct ProxyURLTests {
    struct Parse: Sendable, CustomTestStringConvertible {
        var text: String
        var url: String
        var redacted: String
        var testDescription: String { text }
    }

    static let valid: [Parse] = [
        Parse(text: "http://proxy.example:3128", url: "http://proxy.example:3128", redacted: "http://proxy.example:3128"),
        Parse(text: "http://proxy.example:3128/", url: "http://proxy.example:3128", redacted: "http://proxy.example:3128"),
        Parse(text: "HTTP://Proxy.Example:3128", url: "http://proxy.example:3128", redacted: "http://proxy.example:3128"),
        Parse(text: "proxy.example:3128", url: "http://proxy.example:3128", redacted: "http://proxy.example:3128"),
        Parse(text: "http://proxy.example", url: "http://proxy.example", redacted: "http://proxy.example"),
        Parse(text: "http://user:secret@host:3128", url: "http://user:secret@host:3128", redacted: "http://host:3128"),
        Parse(text: "http://user@host:3128", url: "http://user@host:3128", redacted: "http://host:3128"),
        Parse(text: "http://us%40er:p@ss:w@host:3128", url: "http://us%40er:p@ss:w@host:3128", redacted: "http://host:3128"),
        Parse(text: "https://proxy.example", url: "https://proxy.example", redacted: "https://proxy.example"),
        Parse(text: "socks4://10.0.0.1:1080", url: "socks4://10.0.0.1:1080", redacted: "socks4://10.0.0.1:1080"),
        Parse(text: "socks4a://p:1080", url: "socks4a://p:1080", redacted: "socks4a://p:1080"),
        Parse(text: "socks5://u:pw@p:1080", url: "socks5://u:pw@p:1080", redacted: "socks5://p:1080"),
        Parse(text: "socks5h://p.example:1080", url: "socks5h://p.example:1080", redacted: "socks5h://p.example:1080"),
        Parse(text: "http://[2001:db8::1]:3128", url: "http://[2001:db8::1]:3128", redacted: "http://[2001:db8::1]:3128"),
        Parse(text: "http://127.0.0.1:1", url: "http://127.0.0.1:1", redacted: "http://127.0.0.1:1"),
    ]

    @Test(arguments: valid)
    func parses(_ row: Parse) throws {
        let proxy = try ProxyURL(parsing: row.text)
        #expect(proxy.url == row.url)
        #expect(proxy.redacted == row.redacted)
        #expect(proxy.description == row.redacted)
        #expect(proxy.hasCredentials == row.text.contains("@"))
    }

    struct Invalid: Sendable, CustomTestStringConvertible {
        var text: String
        var message: String
        var testDescription: String { text }
    }

    static let invalid: [Invalid] = [
        Invalid(text: "", message: "--proxy: invalid proxy URL '': it is empty"),
        Invalid(text: "ftp://p:21", message: "--proxy: invalid proxy URL 'ftp://p:21': unsupported scheme 'ftp' (use http, https, socks4, socks4a, socks5, socks5h)"),
        Invalid(text: "user:secret@evil scheme://p", message: "--proxy: invalid proxy URL 'evil scheme://p': it contains white space or control characters"),
        Invalid(text: "us:er:secret@x+y!://p", message: "--proxy: invalid proxy URL 'x+y!://p': unsupported scheme (use http, https, socks4, socks4a, socks5, socks5h)"),
        Invalid(text: "http://", message: "--proxy: invalid proxy URL 'http://': no host"),
        Invalid(text: "http://:3128", message: "--proxy: invalid proxy URL 'http://:3128': no host"),
        Invalid(text: "http://p:0", message: "--proxy: invalid proxy URL 'http://p:0': invalid port '0'"),
        Invalid(text: "http://p:65536", message: "--proxy: invalid proxy URL 'http://p:65536': invalid port '65536'"),
        Invalid(text: "http://p:3128x", message: "--proxy: invalid proxy URL 'http://p:3128x': invalid port '3128x'"),
        Invalid(text: "http://user:secret@p:3128/path", message: "--proxy: invalid proxy URL 'http://p:3128/path': a proxy URL has no path, query or fragment"),
        Invalid(text: "http://user:se/cret@p:3128", message: "--proxy: invalid proxy URL 'http://p:3128': '/', '?' and '#' in credentials must be percent-encoded"),
        Invalid(text: "http://pro_xy!:3128", message: "--proxy: invalid proxy URL 'http://pro_xy!:3128': invalid host name"),
        Invalid(text: "http://[2001:db8::1:3128", message: "--proxy: invalid proxy URL 'http://[2001:db8::1:3128': unterminated IPv6 address"),
        Invalid(text: "http://[fe80::zz]:3128", message: "--proxy: invalid proxy URL 'http://[fe80::zz]:3128': invalid IPv6 address"),
        Invalid(text: "http://p:3128\u{1B}[2J", message: "--proxy: invalid proxy URL 'http://p:3128?[2J': it contains white space or control characters"),
    ]

    @Test(arguments: invalid)
    func rejects(_ row: Invalid) {
        #expect {
            _ = try ProxyURL(parsing: row.text, source: "--proxy")
        } throws: { error in
            (error as? ProxyURLError)?.description == row.message
        }
    }

    @Test func invalidMessagesNeverCarryTheSecret() {
        for text in ["http://user:secret@p:3128/x", "ftp://user:secret@p", "user:secret@ftp://p", "http://user:se/cret@p:3128",
                     "http://user:secret@p:99999", "http://user:secret@"] {
            #expect(throws: ProxyURLError.self) { try ProxyURL(parsing: text) }
            do {
                _ = try ProxyURL(parsing: text)
            } catch {
                #expect(!error.description.contains("secret"), "\(error.description)")
                #expect(!error.description.contains("cret"), "\(error.description)")
            }
        }
    }

    @Test func redactionOfArbitraryText() {
        #expect(ProxyURL.redact("http://user:secret@host:3128") == "http://host:3128")
        #expect(ProxyURL.redact("user:secret@host:3128") == "host:3128")
        #expect(ProxyURL.redact("http://host:3128") == "http://host:3128")
        #expect(ProxyURL.redact("a:b@c@d") == "d")
    }

    @Test func scrubRemovesCredentialsFromText() throws {
        let proxy = try ProxyURL(parsing: "http://user:s3cret-pw@p:3128")
        #expect(proxy.scrub("failed for user:s3cret-pw at p") == "failed for *** at p")
        #expect(proxy.scrub("password s3cret-pw") == "password ***")
        #expect(try ProxyURL(parsing: "http://p:3128").scrub("user:x") == "user:x")
    }
}
