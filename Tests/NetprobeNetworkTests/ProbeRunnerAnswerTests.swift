import NetprobeWire
import NetprobeVerdict
import NetprobeOutput
import NetprobeReport
import NetprobeSystem
import NetprobeNetwork
import NetprobeCheck
import NetprobeWatch
import XCTest

#if canImport(Glibc)
import Glibc
#endif

/// Each server behaviour, one probe at a time: what the observation records.
final class ProbeRunnerAnswerTests: ServerTestCase {
    func testKnownAnswersComeBackInRequestOrder() throws {
        let paths = ["/apple", "/generate_204", "/success.txt", "/connecttest.txt", "/nm"]
        let (results, delivered, _) = try run(paths.map { try request($0) })
        XCTAssertEqual(results.map(\.name), paths)
        XCTAssertEqual(Set(delivered), Set(paths))
        XCTAssertEqual(results.map(\.status), [200, 204, 200, 200, 200])
        XCTAssertEqual(results[0].bodyText, "<HTML><HEAD><TITLE>Success</TITLE></HEAD><BODY>Success</BODY></HTML>")
        XCTAssertEqual(results[1].body, [])
        XCTAssertEqual(results[2].bodyText, "success\n")
        XCTAssertEqual(results[3].bodyText, "Microsoft Connect Test")
        XCTAssertEqual(results[4].bodyText, "NetworkManager is online\n")
        XCTAssertEqual(results[4].header("X-NetworkManager-Status"), "online")
        for result in results {
            XCTAssertNil(result.transportError, result.name)
            XCTAssertFalse(result.bodyTruncated, result.name)
            XCTAssertEqual(result.remoteAddress, "127.0.0.1")
            XCTAssertEqual(result.url, try server.url(result.name))
        }
    }

    func testHeadersAreLowerCasedInArrivalOrder() throws {
        let result = try runOne("/apple")
        XCTAssertEqual(result.headers.map(\.name), ["connection", "cache-control", "content-length", "content-type"])
        XCTAssertEqual(result.header("Content-Type"), "text/html")
        XCTAssertEqual(result.header("content-length"), "68")
    }

    func testTimingsAreCumulativeMilliseconds() throws {
        let timings = try runOne("/slow?ms=200").timings
        let connect = try XCTUnwrap(timings.connectMs)
        let firstByte = try XCTUnwrap(timings.firstByteMs)
        XCTAssertNil(timings.tlsMs, "plain HTTP has no TLS phase")
        XCTAssertLessThanOrEqual(connect, firstByte)
        XCTAssertGreaterThanOrEqual(firstByte, 150, "the server waited 200 ms before answering")
        XCTAssertGreaterThanOrEqual(timings.totalMs, firstByte)
    }

    func testRedirectIsRecordedNotFollowed() throws {
        // The Location points at a closed loopback port: following it would fail the probe.
        let closed = try ClosedPort()
        let location = "http://127.0.0.1:\(closed.port)/login?x=1"
        let query = location.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? ""
        let result = try runOne("/redirect?location=\(query)")
        XCTAssertNil(result.transportError)
        XCTAssertEqual(result.status, 302)
        XCTAssertEqual(result.header("location"), location)
        XCTAssertTrue(result.bodyText.contains("<WISPAccessGatewayParam"))
        let relative = try runOne("/redirect-relative")
        XCTAssertEqual(relative.status, 302)
        XCTAssertEqual(relative.header("location"), "/login")
    }

    func testPortalAnswers() throws {
        let (results, _, _) = try run([try request("/511"), try request("/login-page"), try request("/wrong")])
        XCTAssertEqual(results.map(\.status), [511, 200, 200])
        XCTAssertTrue(results[0].bodyText.contains("log in"))
        XCTAssertTrue(results[1].bodyText.contains("<form"))
        XCTAssertEqual(results[2].bodyText, "something else")
        XCTAssertTrue(results.allSatisfy { $0.transportError == nil })
    }

    func testControlCharactersAreKeptVerbatim() throws {
        let result = try runOne("/control-chars")
        XCTAssertEqual(result.status, 200)
        let location = try XCTUnwrap(result.header("location"))
        XCTAssertTrue(location.contains("\u{1B}[2J"))
        XCTAssertTrue(location.contains("\u{07}"))
        XCTAssertTrue(result.body.contains(0x1B))
        XCTAssertTrue(result.body.contains(0x00))
        XCTAssertEqual(result.header("x-evil"), "\u{1B}[1mbold\u{1B}[0m")
    }

    func testHugeHeadersAreBounded() throws {
        let result = try runOne("/big-headers?count=100&size=3000")
        XCTAssertNil(result.transportError)
        XCTAssertEqual(result.status, 200)
        XCTAssertEqual(result.headers.count, 64)
        XCTAssertTrue(result.headers.allSatisfy { $0.value.utf8.count <= 2048 })
        XCTAssertEqual(result.header("x-big-000")?.utf8.count, 2048)
        XCTAssertEqual(result.bodyText, "big")
    }

    func testRequestHeadersDefeatCachesAndCarryNoCookies() throws {
        var plain = try request("/echo")
        plain.extraHeaders = ["X-Probe: 1"]
        var overriding = try request("/echo", name: "override")
        overriding.extraHeaders = ["Cache-Control: max-age=0", "User-Agent: custom/1"]
        let (results, _, _) = try run([plain, overriding])
        let sent = results[0].bodyText.lowercased()
        XCTAssertTrue(sent.hasPrefix("get /echo http/1.1\r\n"), sent)
        XCTAssertTrue(sent.contains("\r\ncache-control: no-cache"))
        XCTAssertTrue(sent.contains("\r\npragma: no-cache"))
        XCTAssertTrue(sent.contains("\r\nuser-agent: netprobe/0.1"))
        XCTAssertTrue(sent.contains("\r\nx-probe: 1"))
        XCTAssertFalse(sent.contains("cookie"))
        XCTAssertFalse(sent.contains("accept-encoding"), "bodies must arrive as sent, not compressed")
        let replaced = results[1].bodyText.lowercased()
        XCTAssertTrue(replaced.contains("cache-control: max-age=0"))
        XCTAssertFalse(replaced.contains("cache-control: no-cache"))
        XCTAssertTrue(replaced.contains("user-agent: custom/1"))
        XCTAssertFalse(replaced.contains("netprobe/0.1"))
    }

    func testProxyEnvironmentIsIgnored() throws {
        // A proxy that would refuse every connection: the probe must go direct anyway.
        let closed = try ClosedPort()
        let variables = ["http_proxy", "HTTPS_PROXY", "ALL_PROXY", "all_proxy"]
        for name in variables { setenv(name, "http://127.0.0.1:\(closed.port)", 1) }
        defer { for name in variables { unsetenv(name) } }
        let result = try runOne("/generate_204")
        XCTAssertNil(result.transportError)
        XCTAssertEqual(result.status, 204)
    }

    func testBodyCapKeepsTheAnswerAndFlagsTruncation() throws {
        let cut = try runOne("/apple", maxBodyBytes: 10)
        XCTAssertNil(cut.transportError)
        XCTAssertEqual(cut.status, 200)
        XCTAssertEqual(cut.bodyText, "<HTML><HEA")
        XCTAssertTrue(cut.bodyTruncated)
        XCTAssertEqual(cut.header("content-type"), "text/html")
        let exact = try runOne("/apple", maxBodyBytes: 68)
        XCTAssertNil(exact.transportError)
        XCTAssertEqual(exact.body.count, 68)
        XCTAssertFalse(exact.bodyTruncated, "a body exactly at the cap is complete")
    }

    func testEndlessBodyStopsAtTheCapQuickly() throws {
        let (results, _, elapsed) = try run([try request("/endless", timeout: 20)], deadlineIn: 30)
        let result = try XCTUnwrap(results.first)
        XCTAssertNil(result.transportError)
        XCTAssertEqual(result.status, 200)
        XCTAssertEqual(result.body.count, 65536)
        XCTAssertTrue(result.bodyTruncated)
        XCTAssertLessThan(elapsed, 5)
    }

    func testRunnerIsReusable() throws {
        let runner = try ProbeRunner()
        for _ in 0..<3 {
            let results = runner.run([try request("/generate_204")], deadline: .now + .seconds(5)) { _ in true }
            XCTAssertEqual(results.first?.status, 204)
        }
        XCTAssertEqual(runner.run([], deadline: .now + .seconds(1)) { _ in true }.count, 0)
    }
}
