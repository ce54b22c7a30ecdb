import NetprobeWire
import NetprobeVerdict
import Testing

private func offline(_ reason: Reason) -> Conclusion { Conclusion(verdict: .offline, reason: reason, quorum: 2) }
private func gateway(_ state: NeighbourState?, _ address: String = "198.51.100.1") -> GatewayNeighbour {
    GatewayNeighbour(address: address, interface: "eth0", state: state)
}
private let eth0 = NetworkInterface(name: "eth0", index: 2, type: .ethernet, up: true, carrier: false, operstate: "down", mtu: 1500)
private let resolver = ["198.51.100.53"]

private func proxied(_ cause: TransportErrorKind?, connect: Int? = nil, status: Int? = nil) -> ProbeEvidence {
    var seen = ProbeObservation(name: "apple", url: "http://captive.apple.com/hotspot-detect.html", status: status,
                                transportError: status == nil ? TransportError(kind: .proxy, code: 7, message: "x", cause: cause) : nil,
                                proxy: "http://proxy.example:3128", proxyAddress: "203.0.113.8", proxyConnectStatus: connect)
    seen.resolver = "proxy"
    return ProbeEvidence(spec: Fixtures.spec("apple"), outcome: .failure, errorClass: .proxyFailed, observation: seen)
}

/// A probe that timed out: before its name resolved, or after (connecting).
private func timedOut(resolved: Bool) -> ProbeEvidence {
    let seen = ProbeObservation(name: "apple", url: "http://captive.apple.com/hotspot-detect.html",
                                transportError: TransportError(kind: .timeout, code: 28, message: "x"),
                                timings: ProbeTimings(dnsMs: resolved ? 8 : nil, totalMs: 3900))
    return ProbeEvidence(spec: Fixtures.spec("apple"), outcome: .failure, errorClass: .timeout, observation: seen)
}

private func noRoute(_ router: String) -> RouterError { RouterError(router: router, family: .ipv4, icmpType: 3, code: 0) }

struct FaultCase: Sendable, CustomTestStringConvertible {
    var label: String
    var evidence: FaultEvidence
    var fault: Fault?
    var detail: String? = nil
    var summary: String? = nil
    var testDescription: String { label }
}

private let cases: [FaultCase] = [
    // The gate's own answers: nothing was sent, the kernel tells.
    FaultCase(label: "no carrier on the path's link", evidence: FaultEvidence(conclusion: offline(.noLink), link: eth0),
              fault: .link, detail: "eth0: no carrier (down)", summary: "eth0 has no carrier"),
    FaultCase(label: "link administratively down",
              evidence: FaultEvidence(conclusion: offline(.noLink), link: NetworkInterface(
                  name: "eth0", index: 2, type: .ethernet, up: false, carrier: false, operstate: "down", mtu: 1500)),
              fault: .link, summary: "eth0 is down"),
    FaultCase(label: "no link known at all", evidence: FaultEvidence(conclusion: offline(.noLink)),
              fault: .link, summary: "no network link is up"),
    FaultCase(label: "no address", evidence: FaultEvidence(conclusion: offline(.noAddress), link: eth0),
              fault: .link, detail: "eth0: no global address"),
    FaultCase(label: "no default route", evidence: FaultEvidence(conclusion: offline(.noDefaultRoute), refusal: .noRoute),
              fault: .route, summary: "there is no route to the Internet"),
    FaultCase(label: "blackhole route", evidence: FaultEvidence(conclusion: offline(.noDefaultRoute), refusal: .blackhole),
              fault: .route, detail: "the kernel's route to the Internet is blackhole"),
    FaultCase(label: "prohibit route", evidence: FaultEvidence(conclusion: offline(.noDefaultRoute), refusal: .prohibit),
              fault: .route),
    // The neighbour table after the check's traffic.
    FaultCase(label: "gateway never answered ARP", evidence: FaultEvidence(conclusion: offline(.timeout), gateways: [gateway(.failed)]),
              fault: .gateway, detail: "router 198.51.100.1 on eth0: neighbour failed",
              summary: "the router 198.51.100.1 does not answer"),
    FaultCase(label: "gateway still incomplete, names failed",
              evidence: FaultEvidence(conclusion: offline(.dnsFailed), gateways: [gateway(.incomplete)], resolvers: resolver),
              fault: .gateway),
    FaultCase(label: "both families' gateways silent",
              evidence: FaultEvidence(conclusion: offline(.connectFailed), gateways: [gateway(.failed), gateway(.incomplete, "fe80::1")]),
              fault: .gateway),
    FaultCase(label: "dead gateway behind a proxy", evidence: FaultEvidence(conclusion: offline(.proxyFailed), gateways: [gateway(.failed)],
                                                                          probes: [proxied(.timeout)]), fault: .gateway),
    FaultCase(label: "gateway answers, resolvers do not",
              evidence: FaultEvidence(conclusion: offline(.dnsFailed), gateways: [gateway(.reachable)], resolvers: resolver),
              fault: .dns, detail: "resolver 198.51.100.53: no address for the probe names; router 198.51.100.1 on eth0: neighbour reachable",
              summary: "the DNS server 198.51.100.53 resolves no names (the router 198.51.100.1 answers)"),
    FaultCase(label: "gateway answers, no resolver configured",
              evidence: FaultEvidence(conclusion: offline(.dnsFailed), gateways: [gateway(.permanent)]),
              fault: .dns, summary: "the DNS servers resolve no names (the router 198.51.100.1 answers)"),
    FaultCase(label: "configured resolver blocked, the link's answer",
              evidence: FaultEvidence(conclusion: offline(.resolverBlocked), resolvers: ["9.9.9.9"]),
              fault: .dns, summary: "the DNS server 9.9.9.9 does not answer on this network"),
    FaultCase(label: "gateway answers, probes time out",
              evidence: FaultEvidence(conclusion: offline(.timeout), gateways: [gateway(.reachable)]),
              fault: .upstream, detail: "router 198.51.100.1 on eth0: neighbour reachable; beyond it: timeout",
              summary: "the router 198.51.100.1 answers, but nothing beyond it does"),
    FaultCase(label: "gateway answers, names silent until the deadline",
              evidence: FaultEvidence(conclusion: offline(.timeout), gateways: [gateway(.reachable)],
                                      probes: [timedOut(resolved: false), timedOut(resolved: false)], resolvers: resolver),
              fault: .dns, detail: "resolver 198.51.100.53: no answer before the deadline; router 198.51.100.1 on eth0: neighbour reachable",
              summary: "the DNS server 198.51.100.53 does not answer (the router 198.51.100.1 answers)"),
    FaultCase(label: "gateway answers, names resolved, connections silent",
              evidence: FaultEvidence(conclusion: offline(.timeout), gateways: [gateway(.reachable)],
                                      probes: [timedOut(resolved: true), timedOut(resolved: false)], resolvers: resolver),
              fault: .upstream),
    FaultCase(label: "gateway answers, connections refused or unreachable",
              evidence: FaultEvidence(conclusion: offline(.connectFailed), gateways: [gateway(.reachable)]), fault: .upstream),
    FaultCase(label: "one family's gateway silent, the other unknown",
              evidence: FaultEvidence(conclusion: offline(.timeout), gateways: [gateway(nil, "fe80::1"), gateway(.failed)]), fault: .gateway),
    // A router's ICMP error: how far the packets got, and who said there is no way on.
    FaultCase(label: "the gateway itself says network unreachable",
              evidence: FaultEvidence(conclusion: offline(.connectFailed), gateways: [gateway(.reachable)],
                                      routerErrors: [noRoute("198.51.100.1"), noRoute("198.51.100.1")]),
              fault: .upstream,
              detail: "router 198.51.100.1 on eth0: neighbour reachable; beyond it: connect-failed; 198.51.100.1 sent network unreachable",
              summary: "the router 198.51.100.1 answers, but reports: network unreachable"),
    FaultCase(label: "a router beyond the gateway says so, some probes time out",
              evidence: FaultEvidence(conclusion: offline(.timeout), gateways: [gateway(.reachable)],
                                      routerErrors: [noRoute("203.0.113.1"),
                                                     RouterError(router: "203.0.113.2", family: .ipv4, icmpType: 3, code: 1)]),
              fault: .upstream,
              detail: "router 198.51.100.1 on eth0: neighbour reachable; beyond it: timeout; 203.0.113.1 sent network unreachable, 203.0.113.2 sent host unreachable",
              summary: "the router 198.51.100.1 answers; 203.0.113.1 beyond it reports: network unreachable"),
    FaultCase(label: "an error proves a stale gateway answers",
              evidence: FaultEvidence(conclusion: offline(.connectFailed), gateways: [gateway(.stale)],
                                      routerErrors: [noRoute("203.0.113.1")]),
              fault: .upstream, detail: "router 198.51.100.1 on eth0: neighbour stale; beyond it: connect-failed; 203.0.113.1 sent network unreachable"),
    FaultCase(label: "an error with no gateway known (on-link default route)",
              evidence: FaultEvidence(conclusion: offline(.connectFailed),
                                      routerErrors: [RouterError(router: "2001:db8::1", family: .ipv6, icmpType: 1, code: 1)]),
              fault: .upstream, detail: "connect-failed; 2001:db8::1 sent administratively prohibited",
              summary: "the router 2001:db8::1 reports: administratively prohibited"),
    // An ICMPv6 error proves the IPv6 gateway answered, never the IPv4 one (and the other way round).
    FaultCase(label: "dual stack, neither entry telling: an ICMPv6 error names the IPv6 gateway",
              evidence: FaultEvidence(conclusion: offline(.connectFailed), gateways: [gateway(.stale), gateway(.stale, "fe80::1")],
                                      routerErrors: [RouterError(router: "2001:db8::ff", family: .ipv6, icmpType: 1, code: 0)]),
              fault: .upstream, detail: "router fe80::1 on eth0: neighbour stale; beyond it: connect-failed; 2001:db8::ff sent network unreachable",
              summary: "the router fe80::1 answers; 2001:db8::ff beyond it reports: network unreachable"),
    FaultCase(label: "the IPv4 gateway reachable, the IPv6 gateway itself sends the ICMPv6 error",
              evidence: FaultEvidence(conclusion: offline(.timeout), gateways: [gateway(.reachable), gateway(nil, "fe80::1")],
                                      routerErrors: [RouterError(router: "fe80::1", family: .ipv6, icmpType: 1, code: 0)]),
              fault: .upstream, detail: "router 198.51.100.1 on eth0: neighbour reachable; beyond it: timeout; fe80::1 sent network unreachable",
              summary: "the router fe80::1 answers, but reports: network unreachable"),
    FaultCase(label: "an ICMPv6 error with only an IPv4 gateway known proves nothing of it",
              evidence: FaultEvidence(conclusion: offline(.connectFailed), gateways: [gateway(.stale)],
                                      routerErrors: [RouterError(router: "2001:db8::1", family: .ipv6, icmpType: 1, code: 0)]),
              fault: .upstream, detail: "connect-failed; 2001:db8::1 sent network unreachable",
              summary: "the router 2001:db8::1 reports: network unreachable"),
    FaultCase(label: "an ICMP error with only an IPv6 gateway known proves nothing of it",
              evidence: FaultEvidence(conclusion: offline(.connectFailed), gateways: [gateway(.stale, "fe80::1")],
                                      routerErrors: [noRoute("203.0.113.1")]),
              fault: .upstream, detail: "connect-failed; 203.0.113.1 sent network unreachable",
              summary: "the router 203.0.113.1 reports: network unreachable"),
    FaultCase(label: "a silent gateway still wins over an error",
              evidence: FaultEvidence(conclusion: offline(.timeout), gateways: [gateway(.failed)], routerErrors: [noRoute("203.0.113.1")]),
              fault: .gateway),
    FaultCase(label: "port unreachable is the destination refusing, not a router",
              evidence: FaultEvidence(conclusion: offline(.connectFailed), gateways: [gateway(nil)],
                                      routerErrors: [RouterError(router: "203.0.113.10", family: .ipv4, icmpType: 3, code: 3)]),
              fault: nil),
    FaultCase(label: "TLS failed: errors do not make it upstream",
              evidence: FaultEvidence(conclusion: offline(.tlsFailed), gateways: [gateway(.reachable)], routerErrors: [noRoute("198.51.100.1")]),
              fault: nil),
    // The proxy.
    FaultCase(label: "proxy swallows SYNs", evidence: FaultEvidence(conclusion: offline(.proxyFailed), gateways: [gateway(.reachable)],
                                                                   probes: [proxied(.timeout)]),
              fault: .proxy, detail: "proxy http://proxy.example:3128 (203.0.113.8): does not answer",
              summary: "the proxy http://proxy.example:3128 does not answer"),
    FaultCase(label: "proxy refuses connections", evidence: FaultEvidence(conclusion: offline(.proxyFailed), probes: [proxied(.refused)]),
              fault: .proxy, summary: "the proxy http://proxy.example:3128 refuses connections"),
    FaultCase(label: "proxy refuses CONNECT", evidence: FaultEvidence(conclusion: offline(.proxyFailed), probes: [proxied(nil, connect: 403)]),
              fault: .proxy, summary: "the proxy http://proxy.example:3128 refuses to relay (CONNECT 403)"),
    FaultCase(label: "proxy wants credentials",
              evidence: FaultEvidence(conclusion: offline(.proxyAuthRequired), probes: [proxied(nil, status: 407)]),
              fault: .proxy, summary: "the proxy http://proxy.example:3128 asks for credentials"),
    // Ambiguous: the evidence does not tell, so no fault is named.
    FaultCase(label: "online", evidence: FaultEvidence(conclusion: Conclusion(verdict: .online, reason: .probesValidated, quorum: 2),
                                                      gateways: [gateway(.failed)]), fault: nil),
    FaultCase(label: "portal", evidence: FaultEvidence(conclusion: Conclusion(verdict: .portal, reason: .httpRedirect, quorum: 2)),
              fault: nil),
    FaultCase(label: "timeout, no neighbour entry", evidence: FaultEvidence(conclusion: offline(.timeout), gateways: [gateway(nil)]),
              fault: nil),
    FaultCase(label: "timeout, no gateway (tunnel, on-link route)", evidence: FaultEvidence(conclusion: offline(.timeout)), fault: nil),
    FaultCase(label: "names fail, gateway still being confirmed",
              evidence: FaultEvidence(conclusion: offline(.dnsFailed), gateways: [gateway(.delay)], resolvers: resolver), fault: nil),
    FaultCase(label: "timeout, stale entry", evidence: FaultEvidence(conclusion: offline(.timeout), gateways: [gateway(.stale)]), fault: nil),
    FaultCase(label: "timeout, probe state", evidence: FaultEvidence(conclusion: offline(.timeout), gateways: [gateway(.probe)]), fault: nil),
    FaultCase(label: "point-to-point link (noarp)", evidence: FaultEvidence(conclusion: offline(.timeout), gateways: [gateway(.noarp)]),
              fault: nil),
    FaultCase(label: "one family's gateway answers, the other's does not",
              evidence: FaultEvidence(conclusion: offline(.timeout), gateways: [gateway(.reachable), gateway(.failed, "fe80::1")]),
              fault: nil),
    FaultCase(label: "some operators answered (quorum not met)",
              evidence: FaultEvidence(conclusion: offline(.quorumNotMet), gateways: [gateway(.failed)]), fault: nil),
    FaultCase(label: "TLS failed: something beyond answered", evidence: FaultEvidence(conclusion: offline(.tlsFailed),
                                                                                    gateways: [gateway(.reachable)]), fault: nil),
    FaultCase(label: "HTTP errors", evidence: FaultEvidence(conclusion: offline(.httpError), gateways: [gateway(.failed)]), fault: nil),
    FaultCase(label: "no probes", evidence: FaultEvidence(conclusion: offline(.noProbes), gateways: [gateway(.reachable)]), fault: nil),
]

struct FaultLocatorTests {
    @Test(arguments: cases)
    func locates(_ row: FaultCase) {
        let found = FaultLocator.locate(row.evidence)
        #expect(found?.fault == row.fault)
        if let detail = row.detail { #expect(found?.detail == detail) }
        if let summary = row.summary { #expect(found?.summary == summary) }
    }

    /// ICMP (RFC 792, RFC 1812) and ICMPv6 (RFC 4443) types and codes, in words.
    @Test(arguments: [
        (AddressFamily.ipv4, UInt8(3), UInt8(0), "network unreachable"), (.ipv4, 3, 6, "network unreachable"),
        (.ipv4, 3, 1, "host unreachable"), (.ipv4, 3, 7, "host unreachable"), (.ipv4, 3, 3, "port unreachable"),
        (.ipv4, 3, 13, "administratively prohibited"), (.ipv4, 3, 10, "administratively prohibited"),
        (.ipv4, 11, 0, "time exceeded"), (.ipv4, 3, 4, "ICMP type 3 code 4"), (.ipv4, 12, 0, "ICMP type 12 code 0"),
        (.ipv6, 1, 0, "network unreachable"), (.ipv6, 1, 6, "network unreachable"), (.ipv6, 1, 1, "administratively prohibited"),
        (.ipv6, 1, 5, "administratively prohibited"), (.ipv6, 1, 3, "host unreachable"), (.ipv6, 1, 4, "port unreachable"),
        (.ipv6, 3, 0, "time exceeded"), (.ipv6, 1, 2, "ICMPv6 type 1 code 2"), (.ipv6, 3, 1, "time exceeded"),
    ])
    func routerErrorsInWords(_ family: AddressFamily, _ type: UInt8, _ code: UInt8, _ words: String) {
        #expect(RouterError(router: "198.51.100.1", family: family, icmpType: type, code: code).words == words)
    }

    @Test func everyPathDownReasonNamesAHop() {
        for reason in Reason.allCases where reason.isPathDown {
            #expect(FaultLocator.locate(FaultEvidence(conclusion: offline(reason))) != nil, "\(reason)")
        }
    }
}
