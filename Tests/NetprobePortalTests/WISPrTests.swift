@testable import NetprobeWire
@testable import NetprobeVerdict
@testable import NetprobeOutput
@testable import NetprobeReport
@testable import NetprobeSystem
@testable import NetprobeNetwork
@testable import NetprobeCheck
@testable import NetprobeWatch
import Testing

@Suite struct WISPrTests {
    static func parse(_ text: String) -> WISPrInfo? { WISPrParser.parse(Array(text.utf8)) }

    /// The usual shape: an HTML login page with the XML in a comment.
    static let page = """
        <html><head><title>Hotspot</title></head><body>
        <!--
        <?xml version="1.0" encoding="UTF-8"?>
        <WISPAccessGatewayParam xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"
            xsi:noNamespaceSchemaLocation="http://www.acmewisp.com/WISPAccessGatewayParam.xsd">
          <Redirect>
            <AccessProcedure>1.0</AccessProcedure>
            <AccessLocation>isocc=us,cc=1,ac=408,network=ACMEWISP</AccessLocation>
            <LocationName>ACME Coffee &amp; Tea, Gate 12</LocationName>
            <LoginURL>https://login.portal.test/wispr/login?res=login&amp;uamip=10.1.0.1</LoginURL>
            <AbortLoginURL>https://login.portal.test/wispr/abort</AbortLoginURL>
            <MessageType>100</MessageType>
            <ResponseCode>0</ResponseCode>
          </Redirect>
        </WISPAccessGatewayParam>
        -->
        <form action="/login" method="post"><input name="user"></form></body></html>
        """

    @Test func readsEveryFieldFromInsideAComment() throws {
        let info = try #require(Self.parse(Self.page))
        #expect(info.messageType == 100)
        #expect(info.responseCode == 0)
        #expect(info.loginURL == "https://login.portal.test/wispr/login?res=login&uamip=10.1.0.1")
        #expect(info.abortLoginURL == "https://login.portal.test/wispr/abort")
        #expect(info.locationName == "ACME Coffee & Tea, Gate 12")
        #expect(info.accessLocation == "isocc=us,cc=1,ac=408,network=ACMEWISP")
        #expect(info.accessProcedure == "1.0")
    }

    @Test func cdataIsTakenVerbatim() throws {
        let info = try #require(Self.parse("""
            <WISPAccessGatewayParam><Redirect>
            <LoginURL><![CDATA[http://10.0.0.1/login?a=1&b=<2>&amp;]]></LoginURL>
            <LocationName> <![CDATA[Caf\u{E9}]]> &amp; <![CDATA[Bar]]> </LocationName>
            </Redirect></WISPAccessGatewayParam>
            """))
        #expect(info.loginURL == "http://10.0.0.1/login?a=1&b=<2>&amp;")
        #expect(info.locationName == "Caf\u{E9} & Bar")
    }

    @Test func onlyPredefinedEntitiesAndCharacterReferencesAreDecoded() throws {
        let info = try #require(Self.parse("""
            <WISPAccessGatewayParam><Redirect><LocationName>&lt;&gt;&amp;&quot;&apos; &#65;&#x42; &xxe; &lol9; &#0; &#x1b; &#1114112;</LocationName>
            </Redirect></WISPAccessGatewayParam>
            """))
        // Unknown entities, NUL, control characters and out-of-range references stay as written.
        #expect(info.locationName == "<>&\"' AB &xxe; &lol9; &#0; &#x1b; &#1114112;")
    }

    /// A DTD with entity definitions is not processed at all: "billion laughs" stays text.
    @Test func doctypeEntitiesAreNeverExpanded() throws {
        let info = try #require(Self.parse("""
            <?xml version="1.0"?><!DOCTYPE lolz [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;&lol;&lol;">
            <!ENTITY xxe SYSTEM "file:///etc/passwd">]>
            <WISPAccessGatewayParam><Redirect><LocationName>&lol2;&xxe;</LocationName><MessageType>100</MessageType></Redirect></WISPAccessGatewayParam>
            """))
        #expect(info.locationName == "&lol2;&xxe;")
        #expect(info.messageType == 100)
    }

    @Test func caseOfElementNamesDoesNotMatterAndSimilarNamesDoNotMatch() throws {
        let info = try #require(Self.parse("""
            <wispaccessgatewayparam><redirect><LoginURLs>http://wrong.example/</LoginURLs>
            <loginurl>http://right.example/</loginurl></redirect></wispaccessgatewayparam>
            """))
        #expect(info.loginURL == "http://right.example/")
    }

    @Test(arguments: [
        "",
        "<html><body>Welcome</body></html>",
        "<WISPAccessGatewayParam>",
        "<WISPAccessGatewayParam></WISPAccessGatewayParam>",
        "<WISPAccessGatewayParam><LoginURL></LoginURL><LocationName>   </LocationName></WISPAccessGatewayParam>",
        "<WISPAccessGatewayParamX><LoginURL>http://x.example/</LoginURL></WISPAccessGatewayParamX>",
        "<WISPAccessGatewayParam <LoginURL>http://x.example/</LoginURL>",
        "<LoginURL>http://outside.example/</LoginURL>",
    ])
    func nothingUsableIsNil(_ text: String) {
        #expect(Self.parse(text) == nil)
    }

    @Test func truncatedBlockKeepsTheCompleteFields() throws {
        let end = try #require(Self.page.range(of: "<AbortLoginURL>"))
        let info = try #require(Self.parse(String(Self.page[..<end.upperBound]) + "https://login.por"))
        #expect(info.loginURL == "https://login.portal.test/wispr/login?res=login&uamip=10.1.0.1")
        #expect(info.abortLoginURL == nil)
        #expect(info.messageType == nil)
    }

    @Test func fieldsWithChildrenOrUnterminatedCDATAAreDropped() throws {
        let info = try #require(Self.parse("""
            <WISPAccessGatewayParam><LoginURL><b>http://x.example/</b></LoginURL>
            <AbortLoginURL><![CDATA[http://y.example/</AbortLoginURL><LocationName>Ok</LocationName>
            <MessageType>1e9</MessageType><ResponseCode>99999999</ResponseCode></WISPAccessGatewayParam>
            """))
        #expect(info.loginURL == nil)
        #expect(info.abortLoginURL == nil)
        #expect(info.locationName == "Ok")
        #expect(info.messageType == nil)
        #expect(info.responseCode == nil)
    }

    @Test func oversizedValuesAreDropped() throws {
        let long = String(repeating: "a", count: 3000)
        let info = try #require(Self.parse("""
            <WISPAccessGatewayParam><LoginURL>http://x.example/\(long)</LoginURL><LocationName>Ok</LocationName>
            <AccessLocation>\(String(repeating: "&amp;", count: 3000))</AccessLocation></WISPAccessGatewayParam>
            """))
        #expect(info.loginURL == nil)
        #expect(info.accessLocation == nil)
        #expect(info.locationName == "Ok")
    }

    @Test func invalidUTF8ValuesAreDropped() throws {
        var bytes = Array("<WISPAccessGatewayParam><LocationName>".utf8) + [0xFF, 0xFE, 0x41]
        bytes += Array("</LocationName><MessageType>100</MessageType></WISPAccessGatewayParam>".utf8)
        let info = try #require(WISPrParser.parse(bytes))
        #expect(info.locationName == nil)
        #expect(info.messageType == 100)
    }

    /// Hostile pages: huge, deeply repetitive, binary. Parsing stays bounded and never traps.
    @Test func hostileInputIsBoundedAndSafe() {
        let clock = ContinuousClock()
        let started = clock.now
        let repeated = Array(String(repeating: "<WISPAccessGatewayParam", count: 40_000).utf8)
        #expect(WISPrParser.parse(repeated) == nil)
        let manyCDATA = Array(("<WISPAccessGatewayParam><LoginURL>" + String(repeating: "<![CDATA[x]]>", count: 50_000)).utf8)
        #expect(WISPrParser.parse(manyCDATA) == nil)
        let opens = Array(("<WISPAccessGatewayParam>" + String(repeating: "<LoginURL", count: 50_000)).utf8)
        #expect(WISPrParser.parse(opens) == nil)
        let ampersands = Array(("<WISPAccessGatewayParam><LocationName>" + String(repeating: "&", count: 200_000)).utf8)
        #expect(WISPrParser.parse(ampersands) == nil)
        var random = SystemRandomNumberGenerator()
        let noise = (0..<300_000).map { _ in UInt8.random(in: 0...255, using: &random) }
        _ = WISPrParser.parse(noise)
        // Beyond the scan limit nothing is looked at, however valid.
        let late = Array((String(repeating: " ", count: MarkupScanner.maxScanBytes)
            + "<WISPAccessGatewayParam><MessageType>100</MessageType></WISPAccessGatewayParam>").utf8)
        #expect(WISPrParser.parse(late) == nil)
        #expect(started.duration(to: clock.now) < .seconds(10))
    }
}
