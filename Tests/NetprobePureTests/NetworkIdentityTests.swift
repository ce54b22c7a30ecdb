@testable import NetprobeWire
@testable import NetprobeVerdict
@testable import NetprobeOutput
import Testing

/// The SHA-256 behind a network's id, held to the NIST (FIPS 180-4 examples) and the usual
/// test vectors, one- and multi-block, and a message that pads into a second block.
@Test(arguments: [
    ("", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"),
    ("abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"),
    ("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq", "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"),
    ("abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmnoijklmnopjklmnopqklmnopqrlmnopqrsmnopqrstnopqrstu",
     "cf5b16a778af8380036ce59e7b0492370b249b11e8f07a51afac45037afee9d1"),
    ("The quick brown fox jumps over the lazy dog", "d7a8fbb307d7809469ca9abcb0082e4f8d5651e46d3cdb762d02d0bf37c9e592"),
])
func sha256MatchesTheStandardVectors(message: String, expected: String) {
    #expect(SHA256.hex(Array(message.utf8)) == expected)
}

@Test func sha256OfAMillionAs() {
    #expect(SHA256.hex([UInt8](repeating: 0x61, count: 1_000_000))
        == "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
}

@Suite struct NetworkIdentityTests {
    static let home = NetworkIdentity(gatewayMAC: "02:00:5E:00:53:01", dhcpServer: "198.51.100.1", domain: "Home.Example.", ssid: nil)

    /// What goes in, exactly: a version line and each known part in a fixed order; the id is the
    /// first 12 hex digits of its SHA-256, so anyone can compute it from the parts.
    @Test func canonicalTextAndId() {
        let text = "netprobe-network-v1\ngateway_mac=02:00:5e:00:53:01\ndhcp_server=198.51.100.1\ndomain=home.example\n"
        #expect(Self.home.canonicalText == text)
        #expect(Self.home.id == String(SHA256.hex(Array(text.utf8)).prefix(12)))
        #expect(Self.home.id?.count == 12)
    }

    @Test(arguments: [
        (NetworkIdentity(), nil as String?, nil as String?),
        (NetworkIdentity(gatewayMAC: "02:00:00:00:00:01"), "02:00:00:00:00:01", nil),
        (NetworkIdentity(gatewayMAC: "02:00:00:00:00:01", dhcpServer: "198.51.100.1"), "02:00:00:00:00:01", nil),
        (NetworkIdentity(dhcpServer: "198.51.100.1"), "198.51.100.1", nil),
        (NetworkIdentity(gatewayMAC: "02:00:00:00:00:01", domain: "corp.example"), "corp.example", "corp.example"),
        (NetworkIdentity(gatewayMAC: "02:00:00:00:00:01", domain: "corp.example", ssid: "Cafe"), "Cafe", "Cafe"),
    ])
    func nameIsTheSSIDElseTheDomainElseTheGateway(identity: NetworkIdentity, name: String?, given: String?) {
        #expect(identity.name == name)
        #expect(identity.givenName == given)
        #expect((identity.id == nil) == (name == nil))
    }

    /// Spelling that does not change the network does not change the id; every part that does, does.
    @Test func sameNetworkSameIdAnotherNetworkAnother() {
        let spelled = NetworkIdentity(gatewayMAC: "02:00:5e:00:53:01", dhcpServer: "198.51.100.1", domain: "home.example", ssid: nil)
        #expect(spelled.id == Self.home.id)
        let others = [
            NetworkIdentity(gatewayMAC: "02:00:5e:00:53:02", dhcpServer: "198.51.100.1", domain: "home.example"),
            NetworkIdentity(gatewayMAC: "02:00:5e:00:53:01", dhcpServer: "198.51.100.2", domain: "home.example"),
            NetworkIdentity(gatewayMAC: "02:00:5e:00:53:01", dhcpServer: "198.51.100.1", domain: "office.example"),
            NetworkIdentity(gatewayMAC: "02:00:5e:00:53:01", dhcpServer: "198.51.100.1", domain: "home.example", ssid: "home"),
            NetworkIdentity(gatewayMAC: "02:00:5e:00:53:01", dhcpServer: "198.51.100.1"),
        ]
        let ids = Set(others.compactMap(\.id) + [Self.home.id!])
        #expect(ids.count == others.count + 1)
    }

    /// A part cannot pose as another: a domain with a newline or odd characters is no domain.
    @Test(arguments: ["a\ndomain=b", "", ".", "bad domain", "x/y"])
    func domainsThatAreNoDomainAreLeftOut(text: String) {
        #expect(NetworkIdentity(domain: text).domain == nil)
    }

    @Test func prometheusCarriesOnlyTheId() {
        var report = ReportFixtures.report()
        report.paths[report.overall].network = NetworkIdentity(gatewayMAC: "02:00:5e:00:53:01", domain: "home.example", ssid: "Secret SSID")
        let text = PrometheusFormatter.format(report)
        let id = report.network!.id!
        #expect(text.contains("netprobe_network_info{") && text.contains("id=\"\(id)\"} 1"))
        #expect(!text.contains("Secret SSID") && !text.contains("home.example") && !text.contains("02:00:5e"))
    }

    @Test func textNamesTheNetworkOnTheVerdictLine() {
        var report = ReportFixtures.report()
        report.paths[report.overall].network = NetworkIdentity(gatewayMAC: "02:00:5e:00:53:01", domain: "home.example")
        let first = TextFormatter.format(report).split(separator: "\n").first.map(String.init) ?? ""
        #expect(first.hasPrefix("portal on home.example"))
        report.paths[report.overall].network = NetworkIdentity(gatewayMAC: "02:00:5e:00:53:01")
        #expect(!(TextFormatter.format(report).split(separator: "\n").first ?? "").contains(" on "))
    }
}
