import Foundation
@testable import NetprobeWire
@testable import NetprobeLinkState
@testable import NetprobeVerdict
@testable import NetprobeOutput
@testable import NetprobeSystem
@testable import NetprobeNetwork
@testable import NetprobeCheck
import Testing

/// A checker lives as long as a watch: a lease's server that gave no answer that could be seen
/// is not asked again (each re-check behind the portal would wait out the bound again), until
/// the lease changes. What was ignored on the way is reported.
@Suite struct DHCPInformMemoryTests {
    typealias Fallback = DHCPInformFallbackTests

    static let unanswered = DHCPInformExchange.Outcome(state: .noAnswer, error: "no DHCPACK within 500 ms", durationMs: 500,
                                                       ignored: 2, ignoredReason: "198.51.100.9: sent from an address other than the lease's server")

    static func checker(_ network: Fallback.Network) -> Checker {
        let checker = Kit.checker(Fallback.v4, ScriptedRunner { _, _ in Fallback.redirect })
        checker.informAsk = network.ask
        return checker
    }

    @Test func aServerThatGaveNoAnswerIsNotAskedAgainForTheSameLease() throws {
        let leases = try Fallback.Leases()
        let network = Fallback.Network(Self.unanswered)
        let checker = Self.checker(network)
        let first = try checker.run(Fallback.options(leases))
        #expect(first.inform?.state == .noAnswer && first.inform?.ignored == 2)
        #expect(first.inform?.ignoredReason == "198.51.100.9: sent from an address other than the lease's server")
        for _ in 0..<3 {
            let again = try checker.run(Fallback.options(leases))
            #expect(again.verdict == .portal && again.portal?.url == "http://login.example/")
            #expect(again.inform?.state == .unansweredBefore && again.inform?.server == "198.51.100.1")
            #expect(again.inform?.durationMs == nil)
        }
        #expect(network.asked.count == 1)
        // A new lease from another server on the same interface is asked.
        let moved = try Fallback.Leases([("eth0", "198.51.100.2", "198.51.100.254")])
        let other = try checker.run(Fallback.options(moved))
        #expect(other.inform?.state == .noAnswer && network.servers.last == [198, 51, 100, 254])
        #expect(network.asked.count == 2)
        // A new checker (another command) asks again.
        let fresh = Self.checker(network)
        _ = try fresh.run(Fallback.options(leases))
        #expect(network.asked.count == 3)
    }

    /// A server that answered is not asked again for the same lease either: its answer is used
    /// again, marked as remembered, and its API asked as before.
    @Test func aServerThatAnsweredIsNotAskedAgainItsAnswerIsUsed() throws {
        let leases = try Fallback.Leases()
        let network = Fallback.Network(Fallback.answered)
        let checker = Kit.checker(Fallback.v4, ScriptedRunner { name, _ in
            name == "#capport" ? Fallback.captiveAPI : Fallback.redirect
        })
        checker.informAsk = network.ask
        let first = try checker.run(Fallback.options(leases))
        #expect(first.inform?.remembered == false && first.inform?.durationMs == 1.5)
        let second = try checker.run(Fallback.options(leases))
        #expect(network.asked.count == 1)
        #expect(second.inform?.state == .answered && second.inform?.remembered == true && second.inform?.durationMs == nil)
        #expect(second.capport?.source == "dhcpinform" && second.portal?.url == "https://login.example/portal")
    }

    /// A watch restarted with its state directory, and a later visit with another address,
    /// meet a network that already answered or ignored a DHCPINFORM: it is not asked again
    /// (`NetworkMemory`), its answer used as remembered, its silence said as before.
    @Test(arguments: [true, false])
    func aNetworkIsAskedOnceNotOnEveryVisit(_ answers: Bool) throws {
        let leases = try Fallback.Leases()
        let network = Fallback.Network(answers ? Fallback.answered : Self.unanswered)
        let runner = ScriptedRunner { name, _ in name == "#capport" ? Fallback.captiveAPI : Fallback.redirect }
        func checker(_ snapshot: PathSnapshot, memory: NetworkMemory) -> Checker {
            let checker = Kit.checker(snapshot, runner)
            checker.informAsk = network.ask
            checker.networkMemory = memory
            return checker
        }
        let first = checker(Fallback.v4, memory: NetworkMemory())
        _ = try first.run(Fallback.options(leases))
        #expect(network.asked.count == 1)
        #expect(first.networkMemory.entries.last?.informAnswers == answers)
        var visit = Fallback.v4
        visit.interfaces[0] = Kit.link("eth0", index: 2, v4: "198.51.100.3")
        let visitLeases = try Fallback.Leases([("eth0", "198.51.100.3", "198.51.100.1")])
        for (snapshot, lease) in [(Fallback.v4, leases), (visit, visitLeases)] {
            let report = try checker(snapshot, memory: first.networkMemory).run(Fallback.options(lease))
            #expect(network.asked.count == 1)
            if answers {
                #expect(report.inform?.state == .answered && report.inform?.remembered == true)
                #expect(report.capport?.source == "dhcpinform" && report.portal?.url == "https://login.example/portal")
            } else {
                #expect(report.inform?.state == .unansweredBefore && report.portal?.url == "http://login.example/")
            }
        }
        // Another network (another DHCP server) is asked.
        let elsewhere = try Fallback.Leases([("eth0", "198.51.100.2", "198.51.100.254")])
        _ = try checker(Fallback.v4, memory: first.networkMemory).run(Fallback.options(elsewhere))
        #expect(network.asked.count == 2)
    }

    /// What was ignored is said in the JSON: a count and the last reason, never its content.
    @Test func theJSONSaysWhatWasIgnored() throws {
        let leases = try Fallback.Leases()
        let report = try Self.checker(Fallback.Network(Self.unanswered)).run(Fallback.options(leases))
        let text = JSONFormatter.format(report)
        let document = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        let inform = try #require(document["dhcp_inform"] as? [String: Any])
        #expect(inform["ignored"] as? Int == 2)
        #expect(inform["ignored_reason"] as? String == "198.51.100.9: sent from an address other than the lease's server")
        #expect(inform["server"] as? String == "198.51.100.1" && inform["state"] as? String == "no-answer")
        #expect(inform["remembered"] as? Bool == false)
    }
}
