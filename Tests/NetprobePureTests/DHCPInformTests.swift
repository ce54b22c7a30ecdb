@testable import NetprobeWire
@testable import NetprobeLinkState
@testable import NetprobeVerdict
import Testing

/// The DHCPINFORM netprobe sends and the answers it takes (RFC 2131), and when it is sent.
@Suite struct DHCPInformTests {
    static let mac: [UInt8] = [0x02, 0x00, 0x5e, 0x10, 0x20, 0x30]

    @Test func theMessageIsAnInformFromTheClientsAddressAskingFor114And6() throws {
        let message = DHCPMessage.inform(transaction: 0xDEAD_BEEF, clientAddress: [198, 51, 100, 2], hardwareAddress: Self.mac)
        #expect(message.count == 300)
        #expect(Array(message[0..<4]) == [1, 1, 6, 0])
        #expect(Array(message[4..<8]) == [0xDE, 0xAD, 0xBE, 0xEF])
        #expect(Array(message[10..<12]) == [0, 0], "no broadcast flag: the server answers ciaddr")
        #expect(Array(message[12..<16]) == [198, 51, 100, 2])
        #expect(Array(message[16..<28]) == [UInt8](repeating: 0, count: 12), "yiaddr, siaddr, giaddr zero")
        #expect(Array(message[28..<34]) == Self.mac)
        let options = try #require(DHCPMessage.options(message))
        #expect(options[53] == [8] && options[55] == [114, 6])
        #expect(options[51] == nil, "no lease time asked for")
        let bare = DHCPMessage.inform(transaction: 1, clientAddress: [198, 51, 100, 2], hardwareAddress: nil)
        #expect(bare[1] == 0 && bare[2] == 0)
    }

    /// A server's answer: BOOTREPLY, our xid, ciaddr and chaddr, the cookie, then options.
    static func reply(xid: UInt32 = 0xDEAD_BEEF, op: UInt8 = 2, ciaddr: [UInt8] = [198, 51, 100, 2],
                      chaddr: [UInt8] = mac, options: [UInt8]) -> [UInt8] {
        var message = [UInt8](repeating: 0, count: 240)
        message[0] = op
        message[1] = 1
        message[2] = UInt8(chaddr.count)
        for shift in 0..<4 { message[4 + shift] = UInt8(truncatingIfNeeded: xid >> (24 - 8 * shift)) }
        message.replaceSubrange(12..<16, with: ciaddr)
        message.replaceSubrange(28..<(28 + chaddr.count), with: chaddr)
        message.replaceSubrange(236..<240, with: [99, 130, 83, 99])
        return message + options + [255]
    }

    static let uri = Array("https://capport.example/api".utf8)
    static let server: [UInt8] = [198, 51, 100, 1]
    static let ack: [UInt8] = [53, 1, 5, 54, 4, 198, 51, 100, 1, 114, UInt8(uri.count)] + uri + [6, 8, 0, 0, 0, 0, 198, 51, 100, 1]
    static let expected = DHCPMessage.InformExpectation(transaction: 0xDEAD_BEEF, clientAddress: [198, 51, 100, 2],
                                                        hardwareAddress: mac, server: server)
    static let rogue: [UInt8] = [198, 51, 100, 9]

    typealias AnswerRow = (why: String, message: [UInt8], source: [UInt8], expected: String)

    /// Only the lease's server, answering our transaction for our client, is taken: any other
    /// station on the link hears the request and may answer it.
    @Test(arguments: [
        ("the lease's server, all ours", reply(options: ack), server, "answered"),
        ("ciaddr zero, as RFC 2131 allows", reply(ciaddr: [0, 0, 0, 0], options: ack), server, "answered"),
        ("another transaction", reply(xid: 7, options: ack), server, "otherTransaction"),
        ("a request echoed back", reply(op: 1, options: ack), server, "notOurs"),
        ("cut before the cookie", Array(reply(options: ack)[0..<239]), server, "notOurs"),
        ("another chaddr", reply(chaddr: [2, 0, 0, 0, 0, 9], options: ack), server, "otherClient"),
        ("another ciaddr", reply(ciaddr: [198, 51, 100, 77], options: ack), server, "otherClient"),
        ("a neighbour, from its own address", reply(options: ack), rogue, "otherSource"),
        ("a neighbour forging option 54", reply(options: [53, 1, 5, 54, 4] + server), rogue, "otherSource"),
        ("the server's address, option 54 another's", reply(options: [53, 1, 5, 54, 4] + rogue), server, "otherServer"),
        ("the server's address, no option 54", reply(options: [53, 1, 5]), server, "otherServer"),
        ("a DHCPNAK from the server", reply(options: [53, 1, 6, 54, 4] + server), server, "refused"),
        ("an OFFER", reply(options: [53, 1, 2, 54, 4] + server), server, "notAnAck"),
        ("a type option of two bytes", reply(options: [53, 2, 5, 5, 54, 4] + server), server, "notAnAck"),
        ("no type option", reply(options: [54, 4] + server + [6, 4, 198, 51, 100, 1]), server, "notAnAck"),
    ] as [AnswerRow])
    func answersCountOnlyFromTheLeasesServerForOurTransaction(_ row: AnswerRow) {
        let got: String
        switch DHCPMessage.informAnswer(row.message, from: row.source, expected: Self.expected) {
        case .success: got = "answered"
        case .failure(let mismatch): got = "\(mismatch)"
        }
        #expect(got == row.expected, "\(row.why)")
    }

    /// A request that carried no chaddr (no Ethernet address known) checks none.
    @Test func withoutAHardwareAddressChaddrIsNotCompared() {
        let bare = DHCPMessage.InformExpectation(transaction: 0xDEAD_BEEF, clientAddress: [198, 51, 100, 2],
                                                 hardwareAddress: nil, server: Self.server)
        #expect((try? DHCPMessage.informAnswer(Self.reply(chaddr: [2, 0, 0, 0, 0, 9], options: Self.ack), from: Self.server,
                                               expected: bare).get()) != nil)
    }

    @Test func theAnswerGivesTheAPIItsResolversAndTheServer() throws {
        let answer = try DHCPMessage.informAnswer(Self.reply(options: Self.ack), from: Self.server, expected: Self.expected).get()
        #expect(answer.captivePortal == "https://capport.example/api")
        #expect(answer.nameServers == ["0.0.0.0", "198.51.100.1"])
        #expect(answer.server == "198.51.100.1")
        let bare = try DHCPMessage.informAnswer(Self.reply(options: [53, 1, 5, 54, 4] + Self.server + [114, 3, 0x41, 0x0A, 0x42]),
                                                from: Self.server, expected: Self.expected).get()
        #expect(bare.captivePortal == nil && bare.nameServers.isEmpty)
        #expect(bare.captivePortalUnusable, "option 114 with a newline is there, and no URI")
        #expect(!answer.captivePortalUnusable)
    }

    static func conclusion(_ verdict: Verdict) -> Conclusion {
        var conclusion = VerdictEngine.conclude(PathFindings(quorum: 2, gate: .pass(families: [.ipv4], interfaces: ["eth0"])))
        conclusion.verdict = verdict
        return conclusion
    }

    static let captive = CapportReport(uri: "https://capport.example/api", source: "dhcpcd", interface: "eth0", state: .answered)

    typealias Row = (verdict: Verdict, known: Bool, families: Set<AddressFamily>, allowed: Bool, expected: Bool)

    @Test(arguments: [
        (Verdict.portal, false, [.ipv4], true, true),
        (.portal, false, [.ipv4, .ipv6], true, true),
        (.portal, true, [.ipv4], true, false),    // an API is known: nothing to ask
        (.online, false, [.ipv4], true, false),   // never on an online network
        (.offline, false, [.ipv4], true, false),  // never on the offline path
        (.portal, false, [.ipv6], true, false),   // no IPv4: no DHCPv4
        (.portal, false, [.ipv4], false, false),  // the check does not ask the network
    ] as [Row])
    func itIsSentOnlyForAPortalWithNoKnownAPI(_ row: Row) {
        #expect(DHCPInformReport.shouldAsk(Self.conclusion(row.verdict), capport: row.known ? Self.captive : nil,
                                           families: row.families, allowed: row.allowed) == row.expected)
    }

    static func address(_ text: String, _ scope: AddressScope = .global, lifetime: UInt32? = nil,
                        family: AddressFamily = .ipv4) -> InterfaceAddress {
        InterfaceAddress(family: family, address: text, prefixLength: 24, scope: scope, validLifetime: lifetime)
    }

    typealias ClientRow = (addresses: [InterfaceAddress], address: String?, leased: Bool)

    @Test(arguments: [
        ([address("198.51.100.2", lifetime: 3600)], "198.51.100.2", true),
        ([address("198.51.100.2")], "198.51.100.2", false),  // static: said, not sent
        // A leased address beside a static one is the DHCP client's: sent from it.
        ([address("198.51.100.2"), address("198.51.100.3", lifetime: 60)], "198.51.100.3", true),
        ([address("169.254.7.7", .link, lifetime: 60), address("198.51.100.2")], "198.51.100.2", false),
        ([address("2001:db8::2", lifetime: 60, family: .ipv6)], nil, false),  // SLAAC is no DHCPv4 lease
        ([], nil, false),
    ] as [ClientRow])
    func itIsSentOnlyFromALeasedAddress(_ row: ClientRow) {
        let client = DHCPInformReport.client(row.addresses)
        #expect(client?.address.address == row.address)
        #expect((client?.leased ?? false) == row.leased)
    }
}
