#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import NetprobeWire
import NetprobeVerdict
import NetprobeOutput
import NetprobeSystem
import NetprobeNetwork
@testable import NetprobeCheck
import Testing

/// Watch's re-checks on a network full checks proved open: two operators over plain HTTP, and
/// any surprise a full check in the same run; on scripted answers in virtual time.
@Suite struct LeanRecheckTests {
    typealias Waves = WaveLoopTests

    /// One IPv4 and IPv6 uplink on a network named by its DNS domain (so it has an id).
    static let home: PathSnapshot = {
        var snapshot = Kit.dualStack
        snapshot.dns = DNSConfiguration(servers: ["198.51.100.1"], searchDomains: ["home.example"], localStub: false, source: "test")
        return snapshot
    }()

    /// Each plain-HTTP operator's probe and host.
    static let plainOperators = ["apple", "google", "firefox", "microsoft", "gnome"]
    /// The lean pairs the built-in set allows, by rank.
    static let leanWaves = FirstWaves(DefaultProbes.config().probes.filter { !$0.isHTTPS }, quorum: 1)

    /// What the network does: open, or a portal that lets some probes through.
    final class Network: @unchecked Sendable {
        var letThrough: Set<String>?
        var portalPage = "http://login.example/"
        func answer(_ name: String) -> ScriptedRunner.Answer {
            let probe = ScriptedRunner.shortName(name)
            guard let allowed = letThrough, !allowed.contains(probe) else {
                return Waves.good(probe, probe.hasSuffix("-https") ? 20 : 10)
            }
            if probe.hasSuffix("-https") { return ScriptedRunner.Answer(at: .milliseconds(10), error: .reset) }
            return ScriptedRunner.Answer(at: .milliseconds(10), status: 302, headers: [("location", portalPage)])
        }
    }

    static func options(draw rank: Int = 0, lean: Bool = true) -> CheckOptions {
        var options = Waves.options(draw: rank)
        options.lean = lean
        return options
    }

    /// A checker on `home` whose last two full checks found it open.
    static func provenOpen(_ network: Network) throws -> (Checker, ScriptedRunner) {
        let runner = ScriptedRunner { name, _ in network.answer(name) }
        let checker = Kit.checker(home, runner)
        for _ in 0..<NetworkMemory.openStreakForLean {
            let full = try checker.run(options())
            #expect(full.verdict == .online && !full.lean)
        }
        return (checker, runner)
    }

    /// The probes one run sent (the runner keeps them all).
    static func sent(by runner: ScriptedRunner, during run: () throws -> Report) rethrows -> (Report, [String]) {
        let before = runner.sent.count
        let report = try run()
        return (report, runner.sent[before...].map { ScriptedRunner.shortName($0) })
    }

    @Test(arguments: Array(0..<leanWaves.count))
    func aNetworkProvenOpenIsReCheckedWithTwoOperatorsOverPlainHTTP(_ rank: Int) throws {
        let (checker, runner) = try Self.provenOpen(Network())
        let (report, sent) = try Self.sent(by: runner) { try checker.run(Self.options(draw: rank)) }
        #expect(report.lean && report.verdict == .online && report.reason == .probesValidated)
        #expect(sent.sorted() == Self.leanWaves.wave(rank).map(\.name).sorted())
        #expect(Set(sent).count == 2 && sent.allSatisfy(Self.plainOperators.contains))
        // Every probe of the set is in the report; the ones not sent were not needed.
        #expect(report.probes.count == DefaultProbes.config().probes.count)
        #expect(report.probes.filter { $0.outcome == .skipped }.allSatisfy { $0.skipReason == .decided })
        #expect(JSONFormatter.format(report).contains(#""lean":true"#))
    }

    /// Not proven (one full check), not asked for (a one-shot check), or proven too long ago:
    /// the full first wave goes out.
    @Test func onlyAWatchOnANetworkProvenOpenLatelyIsLean() throws {
        let network = Network()
        let runner = ScriptedRunner { name, _ in network.answer(name) }
        let checker = Kit.checker(Self.home, runner)
        #expect(try !checker.run(Self.options()).lean)
        #expect(try !checker.run(Self.options()).lean, "one full check proves too little")
        #expect(try !checker.run(Self.options(lean: false)).lean, "a one-shot check is never lean")
        #expect(try checker.run(Self.options()).lean)
        // The memory's proof is older than the window: full again.
        let id = try #require(checker.networkMemory.entries.last?.id)
        var old = try #require(checker.networkMemory[id])
        old.lastProven = Date().addingTimeInterval(-Double(NetworkMemory.leanWindow.components.seconds) - 60)
        checker.networkMemory = NetworkMemory([old])
        #expect(try !checker.run(Self.options()).lean)
        // --all-paths is always full.
        var all = Self.options()
        all.allPaths = true
        #expect(try !checker.run(all).paths.isEmpty && !checker.run(all).lean)
    }

    /// One probe of the pair intercepted: the full check runs in the same check, and its
    /// verdict is the report's, never the lean round's.
    @Test func aSurpriseRunsTheFullCheckBeforeAnyAnswer() throws {
        let network = Network()
        let (checker, runner) = try Self.provenOpen(network)
        network.letThrough = ["apple", "apple-https"]
        let rank = try #require(Array(0..<Self.leanWaves.count).first { Self.leanWaves.wave($0).map(\.name).contains("apple") })
        let (report, sent) = try Self.sent(by: runner) { try checker.run(Self.options(draw: rank)) }
        #expect(!report.lean && report.verdict == .portal && report.reason == .httpRedirect)
        #expect(report.portal?.url == "http://login.example/")
        #expect(sent.count > 2, "the full check sent its own waves after the lean pair: \(sent)")
        // The network is no longer proven open: the next re-check is full too.
        network.letThrough = nil
        #expect(try !checker.run(Self.options()).lean)
    }

    /// Every allow-list of one or two operators' hosts (plain HTTP and HTTPS), switched on
    /// on a network proven open, against every lean pair: one operator let through is always
    /// found by the next re-check; two are found unless the re-check drew exactly those two
    /// (one pair in `leanWaves.count`). Found means a portal verdict from the full check.
    @Test func allowListingPortalsAreFoundByTheNextReCheck() throws {
        let hosts = ["apple": ["apple", "apple-https"], "google": ["google", "google-https"], "firefox": ["firefox"],
                     "microsoft": ["microsoft"], "gnome": ["gnome"]]
        let operators = Self.plainOperators
        var lists: [[String]] = operators.map { [$0] }
        for (index, first) in operators.enumerated() { for second in operators[(index + 1)...] { lists.append([first, second]) } }
        for list in lists {
            var missed: [Int] = []
            for rank in 0..<Self.leanWaves.count {
                let network = Network()
                let (checker, _) = try Self.provenOpen(network)
                network.letThrough = Set(list.flatMap { hosts[$0]! })
                let report = try checker.run(Self.options(draw: rank))
                if report.verdict != .portal {
                    #expect(report.lean, "only a lean re-check can miss it: \(list) rank \(rank)")
                    missed.append(rank)
                }
            }
            if list.count == 1 {
                #expect(missed.isEmpty, "\(list): missed by \(missed)")
            } else {
                #expect(missed.count == 1, "\(list): missed by \(missed)")
                #expect(missed.allSatisfy { Set(Self.leanWaves.wave($0).map(\.name)) == Set(list) })
            }
        }
    }

    /// A portal whose page a full check found, met again with no page of its own (its probes
    /// answered 200 with another page): the remembered login URL, marked; a check that finds a
    /// page again replaces it.
    @Test func aRememberedLoginURLIsShownUntilACheckFindsOne() throws {
        let network = Network()
        network.letThrough = []
        network.portalPage = "http://login.example/venue"
        let wrongPage = ScriptedRunner.Answer(at: .milliseconds(10), status: 200, body: "<html>Welcome</html>")
        var silent = false
        let runner = ScriptedRunner { name, _ in silent ? wrongPage : network.answer(name) }
        let checker = Kit.checker(Self.home, runner)
        let first = try checker.run(Self.options())
        #expect(first.verdict == .portal && first.portal?.url == "http://login.example/venue" && first.portal?.source == "redirect")
        silent = true
        let again = try checker.run(Self.options())
        #expect(again.verdict == .portal && again.portal?.probe != nil)
        #expect(again.portal?.url == "http://login.example/venue" && again.portal?.source == PortalInfo.rememberedSource)
        #expect(JSONFormatter.format(again).contains(#""source":"remembered""#))
        #expect(TextFormatter.format(again).contains("http://login.example/venue  (remembered: an earlier check found it"))
        silent = false
        network.portalPage = "http://login.example/moved"
        let replaced = try checker.run(Self.options())
        #expect(replaced.portal?.url == "http://login.example/moved" && replaced.portal?.source == "redirect")
        // On another network nothing is remembered: the probe's own URL, as before.
        silent = true
        var elsewhere = Self.home
        elsewhere.dns.searchDomains = ["hotel.example"]
        let other = Kit.checker(elsewhere, runner)
        other.networkMemory = checker.networkMemory
        #expect(try other.run(Self.options()).portal?.source == "probe")
    }
}
