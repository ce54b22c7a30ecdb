/// What a check put on the wire, below HTTP: the TCP payload of its connections (TLS records,
/// HTTP and CONNECT included; TCP/IP headers and retransmissions not), as the kernel counted
/// it, and the DNS messages netprobe exchanged itself (the system resolver's are not seen).
public struct WireBytes: Sendable, Equatable {
    public var tcpSent: Int
    public var tcpReceived: Int
    public var dnsSent: Int
    public var dnsReceived: Int

    public init(tcpSent: Int = 0, tcpReceived: Int = 0, dnsSent: Int = 0, dnsReceived: Int = 0) {
        self.tcpSent = tcpSent
        self.tcpReceived = tcpReceived
        self.dnsSent = dnsSent
        self.dnsReceived = dnsReceived
    }

    public var sent: Int { tcpSent + dnsSent }
    public var received: Int { tcpReceived + dnsReceived }

    /// What moved between two readings of running totals.
    public static func - (after: WireBytes, before: WireBytes) -> WireBytes {
        WireBytes(tcpSent: after.tcpSent - before.tcpSent, tcpReceived: after.tcpReceived - before.tcpReceived,
                  dnsSent: after.dnsSent - before.dnsSent, dnsReceived: after.dnsReceived - before.dnsReceived)
    }
}
