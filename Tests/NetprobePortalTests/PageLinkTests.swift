@testable import NetprobeWire
@testable import NetprobeVerdict
@testable import NetprobeOutput
@testable import NetprobeReport
@testable import NetprobeSystem
@testable import NetprobeNetwork
@testable import NetprobeCheck
@testable import NetprobeWatch
import Testing

@Suite struct MetaRefreshTests {
    static func target(_ html: String) -> String? { MetaRefresh.target(in: Array(html.utf8)) }

    static let tags: [(String, String?)] = [
        (#"<meta http-equiv="refresh" content="0; url=http://login.portal.test/">"#, "http://login.portal.test/"),
        (#"<META HTTP-EQUIV="Refresh" CONTENT="0;URL=/login?x=1&amp;y=2">"#, "/login?x=1&y=2"),
        (#"<meta content="5, url='https://p.example/a b'" http-equiv=refresh>"#, "https://p.example/a b"),
        (#"<meta http-equiv='refresh' content='0; URL="/q"'/>"#, "/q"),
        (#"<meta http-equiv="refresh" content="0;http://bare.example/">"#, "http://bare.example/"),
        (#"<meta http-equiv="refresh" content="2.5 ; url = /spaced ">"#, "/spaced"),
        (#"<meta http-equiv="refresh" content="30">"#, nil),
        (#"<meta http-equiv="content-type" content="0; url=/not-refresh">"#, nil),
        (#"<meta name="refresh" content="0; url=/name-not-http-equiv">"#, nil),
        (#"<!-- <meta http-equiv="refresh" content="0; url=/commented"> -->"#, nil),
        (#"<script>var s = '<meta http-equiv="refresh" content="0; url=/in-script">';</script>"#, nil),
        (#"<metadata http-equiv="refresh" content="0; url=/other-tag">"#, nil),
        (#"<meta http-equiv=refresh content=0;url=/unquoted>"#, "/unquoted"),
        ("", nil),
    ]

    @Test(arguments: tags)
    func refreshTargets(_ html: String, _ expected: String?) {
        #expect(Self.target("<html><head>\(html)</head></html>") == expected)
    }

    @Test func firstEffectiveTagWins() {
        let html = """
            <!-- <meta http-equiv="refresh" content="0; url=/hidden"> -->
            <meta http-equiv="refresh" content="0; url=/first"><meta http-equiv="refresh" content="0; url=/second">
            """
        #expect(Self.target(html) == "/first")
    }

    @Test func hostileInputIsBounded() {
        let clock = ContinuousClock()
        let started = clock.now
        #expect(Self.target(String(repeating: "<meta ", count: 50_000)) == nil)
        #expect(Self.target(String(repeating: "<meta a=b ", count: 30_000)) == nil)
        #expect(Self.target("<!--" + String(repeating: "-", count: 200_000)) == nil)
        #expect(Self.target("<script>" + String(repeating: "<", count: 200_000)) == nil)
        var random = SystemRandomNumberGenerator()
        _ = MetaRefresh.target(in: (0..<300_000).map { _ in UInt8.random(in: 0...255, using: &random) })
        #expect(started.duration(to: clock.now) < .seconds(10))
    }
}

@Suite struct ScriptRedirectTests {
    static let scripts: [(String, String?)] = [
        (#"window.location.href = "http://login.portal.test/";"#, "http://login.portal.test/"),
        (#"window.location='/login';"#, "/login"),
        (#"top.location.replace("https://p.example/x?y=1")"#, "https://p.example/x?y=1"),
        (#"document.location.assign('/a')"#, "/a"),
        (#"if (location.href == "/x") {}"#, nil),
        (#"location.href = someVariable;"#, nil),
        (#"location.href = "unterminated"#, nil),
        (#"location.href = "with\"escape";"#, nil),
        ("no script here", nil),
    ]

    @Test(arguments: scripts)
    func scriptTargets(_ script: String, _ expected: String?) {
        #expect(ScriptRedirect.target(in: Array("<script>\(script)</script>".utf8)) == expected)
    }
}
