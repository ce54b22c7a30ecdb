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

        public init(captivePortal: String? = nil, nameServers: [String] = [], server: String? = nil) {
            self.captivePortal = captivePortal
            self.nameServers = nameServers
            self.server = server
        }
    }

    /// Why a datagram is not the answer to our DHCPINFORM.
    public enum InformMismatch: Error, Equatable, Sendable {
        /// Not a BOOTREPLY with the magic cookie, or for another transaction: someone else's.
        case notOurs
        /// Ours, and the server said no (DHCPNAK).
        case refused
        /// Ours, but not a DHCPACK.
        case notAnAck
    }

    /// The answer `message` gives to the DHCPINFORM of `transaction`.
    public static func informAnswer(_ message: [UInt8], transaction: UInt32) -> Result<InformAnswer, InformMismatch> {
        guard message.count >= 240, message[0] == 2, let options = options(message) else { return .failure(.notOurs) }
        let xid = message[4..<8].reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
        guard xid == transaction else { return .failure(.notOurs) }
        guard let type = options[messageTypeOption], type.count == 1 else { return .failure(.notAnAck) }
        if type[0] == nakType { return .failure(.refused) }
        guard type[0] == ackType else { return .failure(.notAnAck) }
        let server = options[serverIdentifierOption].flatMap { $0.count == 4 ? IPAddressFormat.text($0[...]) : nil }
        return .success(InformAnswer(captivePortal: captivePortal(options), nameServers: nameServers(options) ?? [],
                                     server: server))
    }
}
