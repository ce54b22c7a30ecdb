import NetprobeWire
import NetprobeVerdict
import NetprobeOutput
import NetprobeSystem
import NetprobeNetwork

/// The `.invalid` canary's request: one more transfer in the same round as the probes, bound
/// like them. It is cancelled with the rest once the conclusion is final; only a portal seen as
/// wrong content, which the canary would turn into dns-hijack, waits for it, for `grace` at most.
enum DNSCanary {
    static let requestName = "#dns-canary"
    /// How long a wrong-content portal waits for the canary once the probes have decided. A
    /// resolver answers a name it makes up at once; one that is slow to say NXDOMAIN costs this.
    static let grace: Duration = .milliseconds(500)

    /// A fresh random label each time, so no cache can answer for the resolver.
    static func request(like template: ProbeRequest?) -> (request: ProbeRequest, host: String)? {
        guard let template else { return nil }
        var generator = SystemRandomNumberGenerator()
        // Twelve hex digits written as bytes: a joined array of strings ran generic code the
        // process used nowhere else.
        let label = String(decoding: (0..<12).map { _ in HexDigit.lowercase(UInt8.random(in: 0..<16, using: &generator)) },
                           as: UTF8.self)
        let host = "netprobe-\(label).invalid"
        var request = ProbeRequest(name: requestName, url: "http://\(host)/", timeout: template.timeout)
        request.interface = template.interface
        request.family = template.family
        request.maxBodyBytes = 256
        return (request, host)
    }
}
