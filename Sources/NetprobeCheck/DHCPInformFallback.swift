import NetprobeWire
import NetprobeLinkState
import NetprobeVerdict
import NetprobeOutput
import NetprobeSystem
import NetprobeNetwork

/// When a path's probes show a portal and the machine knows no Captive Portal API URI, the
/// network is asked once (`DHCPInformReport.shouldAsk`), from a leased address only
/// (`DHCPInformReport.client`): one DHCPINFORM on the path's interface, unicast to the server
/// its lease names (none named: none sent, since no answer could be believed), within
/// `DHCPInformReport.bound` and the check's deadline; a lease's server is asked once by the same
/// checker, its answer (or that none could be seen) remembered (`InformMemory`). An API URI in the
/// answer is then asked like an announced one (at most `CaptivePortalAPI.grace` more), and the
/// path concluded again with its answer (`VerdictEngine.conclude`); the answer's resolvers
/// become the link's when none was known. What was asked and why it failed goes in the report.
enum DHCPInformFallback {
    /// Sends the DHCPINFORM: interface, ciaddr, chaddr, the server when known, deadline.
    /// Tests answer for it.
    typealias Ask = (_ interface: String, _ clientAddress: [UInt8], _ hardwareAddress: [UInt8]?, _ server: [UInt8],
                     _ deadline: ContinuousClock.Instant) -> DHCPInformExchange.Outcome

    static func ask(_ interface: String, _ address: [UInt8], _ hardware: [UInt8]?, _ server: [UInt8],
                    _ deadline: ContinuousClock.Instant) -> DHCPInformExchange.Outcome {
        DHCPInformExchange.ask(interface: interface, clientAddress: address, hardwareAddress: hardware, server: server,
                               deadline: deadline)
    }

    static func retry(_ result: Round.PathResult, options: CheckOptions, snapshot: PathSnapshot,
                      started: ContinuousClock.Instant, deadline: ContinuousClock.Instant, ask: Ask?,
                      memory: inout InformMemory,
                      lookUp: LinkResolverFallback.LookUp = LinkResolverFallback.lookUp(_:families:link:deadline:),
                      runner: () throws(CheckError) -> any TransferRunner) throws(CheckError) -> Round.PathResult {
        guard let ask, let interface = result.plan.interface, ContinuousClock.now < deadline,
              DHCPInformReport.shouldAsk(result.conclusion, capport: result.findings.capport,
                                         families: result.plan.families, allowed: options.askNetwork) else { return result }
        var out = result
        // A tunnel has no DHCP server at its far end to ask (WireGuard, tun, GRE: no broadcast domain).
        if let link = snapshot.interfaces.first(where: { $0.name == interface }), link.type == .tunnel || link.type == .loopback {
            return result
        }
        guard let link = snapshot.interfaces.first(where: { $0.name == interface }),
              let client = DHCPInformReport.client(link.addresses),
              let ciaddr = IPAddressText.address(client.address.address, octets: .strict), ciaddr.count == 4 else {
            out.inform = DHCPInformReport(interface: interface, clientAddress: nil, state: .failed,
                                          error: "no IPv4 address on \(interface)")
            return out
        }
        let address = client.address
        guard client.leased else {
            out.inform = DHCPInformReport(interface: interface, clientAddress: address.address, state: .staticAddress,
                                          error: "not sent: \(interface)'s IPv4 address is static, not leased")
            return out
        }
        // RFC 2131 section 4.4.3: to the server the lease of this network recorded, and only
        // its answer believed. The plan's reading when it made one: the owners are not asked
        // twice in a check.
        let leases = result.plan.leases?.filter { $0.interface == interface }
            ?? options.leases.read(path: snapshot, through: [interface]).leases
        guard let server = leases.lazy.compactMap(\.server)
            .compactMap({ IPAddressText.address($0, octets: .strict) }).first(where: { $0.count == 4 }) else {
            out.inform = DHCPInformReport(interface: interface, clientAddress: address.address, state: .noServer,
                                          error: "not sent: no lease of \(interface) names its DHCP server")
            return out
        }
        let hardware = link.hardwareAddress.flatMap(hardwareBytes)
        let lease = InformMemory.Lease(interface: interface, client: ciaddr, server: server, hardware: hardware)
        let serverText = IPAddressFormat.text(server[...])
        let earlier = memory.outcomes[lease] ?? Self.known(result.plan.known)
        if earlier?.state == .noAnswer {
            out.inform = DHCPInformReport(interface: interface, clientAddress: address.address, state: .unansweredBefore,
                                          error: "not sent: \(serverText) gave no answer that could be seen to an earlier DHCPINFORM on this network",
                                          server: serverText)
            return out
        }
        let outcome = earlier ?? ask(interface, ciaddr, hardware, server, min(deadline, ContinuousClock.now + DHCPInformReport.bound))
        if earlier == nil, outcome.state == .answered || outcome.state == .noAnswer { memory.outcomes[lease] = outcome }
        var report = DHCPInformReport(interface: interface, clientAddress: address.address, state: outcome.state,
                                      error: outcome.error, server: serverText,
                                      captivePortal: outcome.answer?.captivePortal,
                                      nameServers: ResolverAddress.filter(outcome.answer?.nameServers ?? []),
                                      durationMs: earlier == nil ? outcome.durationMs : nil, ignored: outcome.ignored,
                                      ignoredReason: outcome.ignoredReason)
        report.remembered = earlier != nil
        if report.state == .answered && report.captivePortal == nil {
            report.error = outcome.answer?.captivePortalUnusable == true
                ? "option 114 of the answer is no URI (control bytes, spaces or not UTF-8)" : "the answer has no option 114"
        }
        // The link's resolvers as the other sources report them: none known, and not the ones
        // the machine already asks.
        let announced = LinkResolvers(servers: report.nameServers, source: DHCPInformReport.source, interface: interface)
        if out.resolvers.link.isEmpty && !report.nameServers.isEmpty && !PathPlan.reaches(announced, snapshot.dns) {
            out.resolvers.link = report.nameServers
            out.resolvers.linkSource = DHCPInformReport.source
            out.resolvers.linkInterface = interface
        }
        out.inform = report
        guard let uri = report.captivePortal else { return out }
        var plan = result.plan
        plan.requests = []
        plan.specs = []
        plan.canary = nil
        plan.api = CaptivePortalAPI.query(
            LeaseReader.Found(uri: uri, source: DHCPInformReport.source, interface: interface), options: options,
            families: plan.families, binding: options.interfaces.isEmpty ? nil : interface)
        out.plan.api = plan.api
        if let report = plan.api?.report { out.findings.capport = report }
        if plan.api?.request != nil && ContinuousClock.now < deadline {
            let until = min(deadline, ContinuousClock.now + CaptivePortalAPI.grace)
            // The probes' names resolved only through the link's resolvers (the configured ones
            // are blocked here): the API's name is looked up the same way, and pinned.
            if out.resolvers.used == .link, let server = out.resolvers.linkServer, let request = plan.api?.request,
               let host = URLSyntax.hostAndPort(request.url)?.host, PathPlan.looksUpName(request.url) {
                let link = LinkResolvers(servers: [server], source: out.resolvers.linkSource ?? "", interface: interface)
                let lookup = lookUp([host], plan.families, link, until)
                if let addresses = lookup.addresses[host] { plan.api?.request?.pinnedAddresses = addresses }
            }
            var round = Round([plan], quorum: options.config.quorum, started: started)
            out.findings.capport = try round.run(on: runner(), deadline: until).first?.findings.capport
        }
        out.conclusion = VerdictEngine.conclude(out.findings)
        return out
    }

    /// What the network's DHCP server did with a DHCPINFORM on an earlier visit (`NetworkMemory`,
    /// a watch's): the network is asked once, not on every visit; nil when it never was.
    static func known(_ entry: NetworkMemory.Entry?) -> DHCPInformExchange.Outcome? {
        switch entry?.informAnswers {
        case true?: return DHCPInformExchange.Outcome(state: .answered,
                                                      answer: DHCPMessage.InformAnswer(captivePortal: entry?.informPortalAPI))
        case false?: return DHCPInformExchange.Outcome(state: .noAnswer)
        case nil: return nil
        }
    }

    /// "aa:bb:cc:dd:ee:ff" as six bytes; nil for anything else (then the message has no chaddr).
    static func hardwareBytes(_ text: String) -> [UInt8]? {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 6 else { return nil }
        let bytes = parts.compactMap { $0.count == 2 ? UInt8($0, radix: 16) : nil }
        return bytes.count == 6 ? bytes : nil
    }
}

/// What each lease's server answered to a checker's DHCPINFORM, or that it gave no answer that
/// could be seen: the network is asked once per lease, not at every re-check of a watch behind
/// a portal (a silent server would cost the bound each time). A lease that changes (another
/// address, server, interface or hardware address) is asked again.
struct InformMemory {
    struct Lease: Hashable {
        var interface: String
        var client: [UInt8]
        var server: [UInt8]
        var hardware: [UInt8]?
    }

    var outcomes: [Lease: DHCPInformExchange.Outcome] = [:]
}
