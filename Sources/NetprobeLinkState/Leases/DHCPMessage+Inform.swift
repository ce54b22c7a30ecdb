import NetprobeWire

/// DHCPINFORM (RFC 2131 sections 3.4 and 4.4.3): a client that already has its address asks
/// the network for configuration only. netprobe asks for the Captive Portal API (option 114,
/// RFC 8910) and the resolvers (option 6) when the machine's own DHCP client did not keep them.
extension DHCPMessage {
    /// The DHCP server's port and the client's.
    public static let serverPort: UInt16 = 67
    public static let clientPort: UInt16 = 68
    static let messageTypeOption: UInt8 = 53
    static let parameterRequestOption: UInt8 = 55
    static let serverIdentifierOption: UInt8 = 54
    static let informType: UInt8 = 8
    static let ackType: UInt8 = 5
    static let nakType: UInt8 = 6
    /// What a DHCPINFORM asks for: option 114 first, the reason it is sent, then option 6.
    public static let informRequests: [UInt8] = [captivePortalOption, domainNameServersOption]
    /// BOOTP's minimum message (RFC 1542 section 2.1): some relays drop shorter ones.
    static let minimumLength = 300

    /// A DHCPINFORM from `clientAddress` (ciaddr, four bytes) with transaction `transaction`,
    /// the client's Ethernet address in chaddr when known (six bytes; otherwise none, hlen 0).
    /// No broadcast flag: the client has its address, and the server answers it there
    /// (RFC 2131 section 4.3.5). No lease time is asked for (section 4.4.3).
    public static func inform(transaction: UInt32, clientAddress: [UInt8], hardwareAddress: [UInt8]?) -> [UInt8] {
        precondition(clientAddress.count == 4, "ciaddr is an IPv4 address")
        let hardware = hardwareAddress?.count == 6 ? hardwareAddress! : []
        var message = [UInt8](repeating: 0, count: 240)
        message[0] = 1                                   // op: BOOTREQUEST
        message[1] = hardware.isEmpty ? 0 : 1            // htype: Ethernet
        message[2] = UInt8(hardware.count)               // hlen
        for shift in 0..<4 { message[4 + shift] = UInt8(truncatingIfNeeded: transaction >> (24 - 8 * shift)) }
        message.replaceSubrange(12..<16, with: clientAddress)
        message.replaceSubrange(28..<(28 + hardware.count), with: hardware)
        message.replaceSubrange(236..<240, with: [99, 130, 83, 99])
        message += [messageTypeOption, 1, informType]
        message += [parameterRequestOption, UInt8(informRequests.count)] + informRequests
        message.append(255)
        if message.count < minimumLength { message += [UInt8](repeating: 0, count: minimumLength - message.count) }
        return message
    }

    /// What a server answered to a DHCPINFORM.
    public struct InformAnswer: Sendable, Equatable {
        /// Option 114 as a URI candidate (`DHCPMessage.uri`).
        public var captivePortal: String?
        /// Option 6 as written, four bytes each (unfiltered: the caller keeps the usable ones).
        public var nameServers: [String]
        /// Option 54, the server that answered.
        public var server: String?
        /// Option 114 was there but is no URI (control bytes, spaces, not UTF-8).
        public var captivePortalUnusable = false

        public init(captivePortal: String? = nil, nameServers: [String] = [], server: String? = nil,
                    captivePortalUnusable: Bool = false) {
            self.captivePortal = captivePortal
            self.nameServers = nameServers
            self.server = server
            self.captivePortalUnusable = captivePortalUnusable
        }
    }

    /// Who may answer a DHCPINFORM, and to which transaction: on a shared link every station
    /// hears the request, so an answer counts only from the server that leased the address
    /// (its source address and its option 54), for our transaction, our hardware address and
    /// our client address.
    public struct InformExpectation: Sendable, Equatable {
        public var transaction: UInt32
        /// ciaddr: four bytes.
        public var clientAddress: [UInt8]
        /// chaddr as sent (six bytes), or nil when the request carried none.
        public var hardwareAddress: [UInt8]?
        /// The server the lease names: four bytes.
        public var server: [UInt8]

        public init(transaction: UInt32, clientAddress: [UInt8], hardwareAddress: [UInt8]?, server: [UInt8]) {
            self.transaction = transaction
            self.clientAddress = clientAddress
            self.hardwareAddress = hardwareAddress?.count == 6 ? hardwareAddress : nil
            self.server = server
        }
    }

    /// Why a datagram is not the answer to our DHCPINFORM.
    public enum InformMismatch: Error, Equatable, Sendable {
        /// Not a BOOTREPLY with the magic cookie and options: no DHCP answer at all.
        case notOurs
        /// A DHCP answer for another transaction.
        case otherTransaction
        /// Our transaction, but for another client: chaddr or ciaddr are not ours.
        case otherClient
        /// Sent from an address other than the lease's server.
        case otherSource
        /// Option 54 missing or naming another server than the lease's.
        case otherServer
        /// Ours, and the server said no (DHCPNAK).
        case refused
        /// Ours, but not a DHCPACK.
        case notAnAck

        /// In words, for `dhcp_inform.ignored_reason`.
        public var words: String {
            switch self {
            case .notOurs: return "not a DHCP answer"
            case .otherTransaction: return "another transaction (xid)"
            case .otherClient: return "another client (chaddr or ciaddr)"
            case .otherSource: return "sent from an address other than the lease's server"
            case .otherServer: return "option 54 names another server than the lease's"
            case .refused: return "DHCPNAK"
            case .notAnAck: return "not a DHCPACK"
            }
        }
    }

    /// The answer `message`, sent from `source` (four bytes), gives to the DHCPINFORM that
    /// `expected` describes. The transaction is checked first, so a datagram of another
    /// exchange on the link is told apart from a forged answer to ours.
    public static func informAnswer(_ message: [UInt8], from source: [UInt8],
                                    expected: InformExpectation) -> Result<InformAnswer, InformMismatch> {
        guard message.count >= 240, message[0] == 2, let options = options(message) else { return .failure(.notOurs) }
        let xid = message[4..<8].reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
        guard xid == expected.transaction else { return .failure(.otherTransaction) }
        // ciaddr: ours, or zero, which RFC 2131 (table 3) allows in a DHCPACK.
        let ciaddr = Array(message[12..<16])
        guard ciaddr == expected.clientAddress || ciaddr == [0, 0, 0, 0] else { return .failure(.otherClient) }
        if let hardware = expected.hardwareAddress {
            guard message[1] == 1, message[2] == 6, Array(message[28..<34]) == hardware else { return .failure(.otherClient) }
        }
        guard source == expected.server else { return .failure(.otherSource) }
        guard options[serverIdentifierOption] == expected.server else { return .failure(.otherServer) }
        guard let type = options[messageTypeOption], type.count == 1 else { return .failure(.notAnAck) }
        if type[0] == nakType { return .failure(.refused) }
        guard type[0] == ackType else { return .failure(.notAnAck) }
        let uri = captivePortal(options)
        return .success(InformAnswer(captivePortal: uri, nameServers: nameServers(options) ?? [],
                                     server: serverIdentifier(options),
                                     captivePortalUnusable: uri == nil && options[captivePortalOption] != nil))
    }

    /// Option 54, the server that answered (four bytes); nil when absent or malformed.
    public static func serverIdentifier(_ options: [UInt8: [UInt8]]) -> String? {
        options[serverIdentifierOption].flatMap { $0.count == 4 ? IPAddressFormat.text($0[...]) : nil }
    }
}
