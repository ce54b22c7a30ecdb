import NetprobeWire
/// RFC 6761 reserves `.invalid`: no name under it can exist, so an honest resolver
/// answers NXDOMAIN. One that returns an address for it answers every name —
/// a captive portal's resolver, or an ISP's "search page" wildcard. netprobe asks for
/// one such name alongside the probes (the canary) and records what happened.
public struct DNSCanaryReport: Sendable, Equatable {
    public var name: String
    /// true: the name resolved; false: it did not (as it must); nil: no answer before the
    /// verdict was decided or the deadline passed (the canary does not delay the verdict, but
    /// for a wrong-content portal, which waits a short grace for it).
    public var resolved: Bool?
    /// Where the name led, when libcurl learned it.
    public var address: String?

    public init(name: String, resolved: Bool?, address: String?) {
        self.name = name
        self.resolved = resolved
        self.address = address
    }

    /// Reads the canary's transfer: any sign that a connection was attempted means the name resolved.
    public static func from(_ observation: ProbeObservation, name: String) -> DNSCanaryReport {
        let address = observation.remoteAddress.flatMap { $0.isEmpty ? nil : $0 }
        let resolved: Bool?
        switch observation.transportError?.kind {
        case nil:
            resolved = true
        case .dns?:
            resolved = false
        case .cancelled?, .timeout?:
            resolved = address == nil ? nil : true
        case .refused?, .unreachable?, .reset?, .proto?, .tls?:
            resolved = true
        case .other?, .proxy?:  // the canary never goes through a proxy; should it, nothing is known
            resolved = address == nil ? nil : true
        }
        return DNSCanaryReport(name: name, resolved: resolved, address: address)
    }
}
