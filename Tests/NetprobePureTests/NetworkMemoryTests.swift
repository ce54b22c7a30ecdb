import Foundation
import NetprobeWire
import NetprobeVerdict
import Testing

/// Paths on known networks, as a check would report them, for what `NetworkMemory` learns.
enum MemoryFixtures {
    static let home = NetworkIdentity(gatewayMAC: "02:00:5e:00:53:01", dhcpServer: "198.51.100.1", domain: "home.example")
    static let start = Date(timeIntervalSince1970: 1_790_000_000)

    static func network(_ index: Int) -> NetworkIdentity { NetworkIdentity(domain: "n\(index).example") }

    /// Probes whose answers a portal intercepted (apple's and google's) and one that got through.
    static func intercepted() -> [ProbeEvidence] {
        let apple = Fixtures.spec("apple"), google = Fixtures.spec("google")
        let moved = [("Location", "http://portal.example/login")]
        return [
            Classifier.classify(Fixtures.observation(apple, status: 302, headers: moved), for: apple),
            Classifier.classify(Fixtures.observation(google, status: 302, headers: moved), for: google),
            Classifier.classify(Fixtures.expectedAnswer("firefox"), for: Fixtures.spec("firefox")),
        ]
    }

    static func path(_ verdict: Verdict, _ reason: Reason, portal: PortalInfo? = nil, probes: [ProbeEvidence] = [],
                     network: NetworkIdentity? = home, capport: CapportReport? = nil, inform: DHCPInformReport? = nil) -> PathReport {
        let conclusion = Conclusion(verdict: verdict, reason: reason, portal: portal, successOperators: 0, portalOperators: 0, quorum: 2)
        var path = PathReport(interface: "eth0", family: nil, isDefault: true, conclusion: conclusion, families: [.ipv4],
                              probes: probes, durationMs: 10, capport: capport, inform: inform)
        path.network = network
        return path
    }

    static let online = path(.online, .probesValidated)
    static func portal(url: String? = "http://portal.example/login", source: String? = "redirect") -> PathReport {
        path(.portal, .httpRedirect, portal: PortalInfo(url: url, source: source, probe: "apple", status: 302), probes: intercepted())
    }
}

@Suite struct NetworkMemoryTests {
    typealias F = MemoryFixtures
    static let id = F.home.id!

    /// Each check a second after the one before: (verdict's path, full check?).
    static func learnt(_ checks: [(PathReport, Bool)]) -> NetworkMemory {
        var memory = NetworkMemory()
        for (index, check) in checks.enumerated() {
            memory.learn(check.0, full: check.1, at: F.start.addingTimeInterval(Double(index)))
        }
        return memory
    }

    @Test(arguments: [
        // Full checks in a row that found it online; any other full verdict starts again.
        ([(F.online, true)], 1, false),
        ([(F.online, true), (F.online, true)], 2, true),
        ([(F.online, true), (F.online, true), (F.online, true)], 3, true),
        ([(F.online, true), (F.portal(), true), (F.online, true)], 1, false),
        ([(F.online, true), (F.online, true), (F.path(.offline, .timeout), true)], 0, false),
        // A lean re-check proves nothing: it neither adds to the streak nor moves the proof.
        ([(F.online, true), (F.online, false), (F.online, false)], 1, false),
        ([(F.online, true), (F.online, true), (F.path(.offline, .timeout), false)], 2, true),
    ] as [([(PathReport, Bool)], Int, Bool)])
    func openStreakAndLean(checks: [(PathReport, Bool)], streak: Int, lean: Bool) throws {
        let memory = Self.learnt(checks)
        let entry = try #require(memory[Self.id])
        #expect(entry.openStreak == streak)
        #expect(memory.provenOpen(Self.id, at: F.start.addingTimeInterval(60)) == lean)
        #expect(entry.lastSeen == F.start.addingTimeInterval(Double(checks.count - 1)), "every check marks it seen")
        let lastFull = checks.lastIndex { $0.1 }!
        #expect(entry.lastProven == F.start.addingTimeInterval(Double(lastFull)))
        #expect(entry.verdict == checks[lastFull].0.conclusion.verdict)
    }

    @Test(arguments: [
        (0.0, true), (3600.0, true), (3600.5, false), (86_400.0, false),
        // A clock that went back before the proof proves nothing.
        (-1.0, false),
    ])
    func leanOnlyWithinTheWindowAfterTheLastProof(after seconds: Double, lean: Bool) {
        let memory = Self.learnt([(F.online, true), (F.online, true)])
        #expect(memory.provenOpen(Self.id, at: F.start.addingTimeInterval(1 + seconds)) == lean)
        #expect(!memory.provenOpen("000000000000", at: F.start), "a network never seen is not proven")
    }

    @Test(arguments: [
        ("redirect", true), ("meta-refresh", true), ("wispr", true), ("capport", true), ("body", true),
        // A probe's own URL is no login page, and a remembered one is not this check's finding.
        ("probe", false), (PortalInfo.rememberedSource, false), (nil, false),
    ] as [(String?, Bool)])
    func portalURLOnlyFromTheNetworkItself(source: String?, kept: Bool) throws {
        let memory = Self.learnt([(F.portal(source: source), true)])
        let entry = try #require(memory[Self.id])
        #expect(entry.portalURL == (kept ? "http://portal.example/login" : nil))
        #expect(entry.intercepted == ["apple", "google"], "the operators whose probes the portal answered, once each, in order")
        #expect(entry.verdict == .portal && entry.reason == .httpRedirect && entry.openStreak == 0)
    }

    @Test func onlineForgetsThePortalAndOtherVerdictsKeepIt() throws {
        let offline = Self.learnt([(F.portal(), true), (F.path(.offline, .timeout), true)])
        #expect(offline[Self.id]?.portalURL == "http://portal.example/login")
        #expect(offline[Self.id]?.intercepted == ["apple", "google"])
        let lean = Self.learnt([(F.portal(), true), (F.online, false)])
        #expect(lean[Self.id]?.portalURL == "http://portal.example/login", "a lean re-check proves no login")
        let online = Self.learnt([(F.portal(), true), (F.online, true)])
        #expect(online[Self.id]?.portalURL == nil)
        #expect(online[Self.id]?.intercepted == [])
        // A portal with no URL of its own keeps the one a full check found before.
        let again = Self.learnt([(F.portal(), true), (F.portal(url: nil, source: nil), true)])
        #expect(again[Self.id]?.portalURL == "http://portal.example/login")
    }

    @Test func portalAPIFromTheLeaseNotFromTheInformAnswer() {
        let lease = CapportReport(uri: "https://api.home.example/capport", source: "dhcp-lease", state: .answered)
        let informed = CapportReport(uri: "https://other.example/capport", source: DHCPInformReport.source, state: .answered)
        #expect(Self.learnt([(F.path(.online, .probesValidated, capport: lease), true)])[Self.id]?.portalAPI == lease.uri)
        #expect(Self.learnt([(F.path(.online, .probesValidated, capport: informed), true)])[Self.id]?.portalAPI == nil)
        #expect(Self.learnt([(F.path(.online, .probesValidated, capport: lease), false)])[Self.id]?.portalAPI == nil,
                "a lean re-check learns no API")
    }

    @Test(arguments: [
        (DHCPInformReport.State.answered, "https://api.home.example/capport", false, true as Bool?, "https://api.home.example/capport" as String?),
        (.noAnswer, nil, false, false, nil),
        // What the check did not ask this time, or could not, says nothing of the network.
        (.failed, nil, false, nil, nil),
        (.notPermitted, nil, false, nil, nil),
        (.answered, "https://api.home.example/capport", true, nil, nil),
    ] as [(DHCPInformReport.State, String?, Bool, Bool?, String?)])
    func informAnsweredOrNot(state: DHCPInformReport.State, portal: String?, remembered: Bool, answers: Bool?, api: String?) {
        var inform = DHCPInformReport(interface: "eth0", clientAddress: "198.51.100.2", state: state, captivePortal: portal)
        inform.remembered = remembered
        let memory = Self.learnt([(F.path(.online, .probesValidated, inform: inform), false)])
        #expect(memory[Self.id]?.informAnswers == answers)
        #expect(memory[Self.id]?.informPortalAPI == api)
    }

    @Test func noAnswerForgetsTheAnswerBefore() {
        let answered = DHCPInformReport(interface: "eth0", clientAddress: "198.51.100.2", state: .answered, captivePortal: "https://a.example/")
        let silent = DHCPInformReport(interface: "eth0", clientAddress: "198.51.100.2", state: .noAnswer)
        let memory = Self.learnt([(F.path(.online, .probesValidated, inform: answered), true),
                                  (F.path(.online, .probesValidated, inform: silent), true)])
        #expect(memory[Self.id]?.informAnswers == false)
        #expect(memory[Self.id]?.informPortalAPI == nil)
    }

    @Test func aPathOfNoKnownNetworkTeachesNothing() {
        #expect(Self.learnt([(F.path(.online, .probesValidated, network: nil), true)]).entries.isEmpty)
        #expect(Self.learnt([(F.path(.online, .probesValidated, network: NetworkIdentity()), true)]).entries.isEmpty)
    }

    @Test func theNetworkSeenLeastRecentlyIsForgottenFirst() {
        var memory = NetworkMemory()
        for index in 0...NetworkMemory.maxNetworks {
            memory.learn(F.path(.online, .probesValidated, network: F.network(index)), full: true, at: F.start.addingTimeInterval(Double(index)))
        }
        #expect(memory.entries.count == NetworkMemory.maxNetworks)
        #expect(memory[F.network(0).id!] == nil)
        #expect(memory.entries.first?.id == F.network(1).id)
        // Seeing an old network again makes it the newest: the next one to go is another.
        memory.learn(F.path(.online, .probesValidated, network: F.network(1)), full: false, at: F.start.addingTimeInterval(1000))
        #expect(memory.entries.last?.id == F.network(1).id)
        memory.learn(F.path(.online, .probesValidated, network: F.network(999)), full: true, at: F.start.addingTimeInterval(1001))
        #expect(memory[F.network(1).id!] != nil && memory[F.network(2).id!] == nil)
        memory.keepNewest(2)
        #expect(memory.entries.map(\.id) == [F.network(1).id, F.network(999).id])
    }

    @Test func initKeepsEachNetworkOnceAndTheNewest() {
        let old = NetworkMemory.Entry(id: "aaaaaaaaaaaa", name: "old", lastSeen: F.start)
        let new = NetworkMemory.Entry(id: "aaaaaaaaaaaa", name: "new", lastSeen: F.start.addingTimeInterval(5))
        let other = NetworkMemory.Entry(id: "bbbbbbbbbbbb", lastSeen: F.start.addingTimeInterval(1))
        #expect(NetworkMemory([new, other, old]).entries == [other, new])
        let many = (0..<100).map { NetworkMemory.Entry(id: String(format: "%012x", $0), lastSeen: F.start.addingTimeInterval(Double($0))) }
        let memory = NetworkMemory(many.reversed())
        #expect(memory.entries == Array(many.suffix(NetworkMemory.maxNetworks)))
    }
}
