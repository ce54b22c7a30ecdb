import NetprobeWire
import NetprobeVerdict
import NetprobeOutput
import NetprobeReport
import NetprobeSystem
import NetprobeNetwork
import NetprobeCheck
import NetprobeWatch
import Testing

/// `--all-paths`: every (interface, family) probed on its own, in one round, each with its own
/// verdict and early exit; the overall answer is the best of the paths the kernel routes the machine's traffic through.
@Suite struct AllPathsTests {
    @Test func everyPathIsProbedBoundToItsInterfaceAndFamily() throws {
        let runner = ScriptedRunner { _, _ in Kit.ok(5) }
        let report = try Kit.checker(Kit.twoUplinks, runner).run(Kit.options(allPaths: true))
        #expect(report.paths.map { "\($0.interface ?? "-")/\($0.family?.rawValue ?? "-")" }
                == ["eth0/ipv4", "wlan0/ipv4", "eth0/ipv6", "wlan0/ipv6"])
        #expect(report.paths.map(\.isDefault) == [true, false, true, false])
        #expect(Set(runner.requests.map { Kit.path(of: $0) }) == ["eth0/ipv4", "wlan0/ipv4", "eth0/ipv6", "wlan0/ipv6"])
        #expect(runner.rounds == 1)
        #expect(report.paths.allSatisfy { $0.conclusion.verdict == .online })
    }

    @Test func aBlackHoledFamilyIsReportedWithoutChangingTheOverallAnswer() throws {
        // IPv6 answers nothing anywhere; IPv4 works.
        let runner = ScriptedRunner { _, request in request.family == .ipv6 ? nil : Kit.ok(5) }
        let report = try Kit.checker(Kit.twoUplinks, runner).run(Kit.options(timeout: 2, allPaths: true))
        #expect(report.verdict == .online)
        let v6 = report.paths.filter { $0.family == .ipv6 }
        #expect(v6.count == 2 && v6.allSatisfy { $0.conclusion.verdict == .offline && $0.conclusion.reason == .timeout })
        // IPv4 paths settled early: their own early exit, not the slowest path's.
        #expect(report.paths.filter { $0.family == .ipv4 }.allSatisfy { $0.durationMs < 1000 })
    }

    @Test func theOverallAnswerIsTheBestOfThePreferredPathsNotOfAll() throws {
        // eth0 (preferred) is behind a portal; wlan0 is open: the machine's traffic meets the portal.
        let runner = ScriptedRunner { _, request in
            request.interface == "eth0"
                ? ScriptedRunner.Answer(at: .milliseconds(3), status: 302, headers: [("location", "http://login.example/")])
                : Kit.ok(3)
        }
        let report = try Kit.checker(Kit.twoUplinks, runner).run(Kit.options(allPaths: true))
        #expect(report.verdict == .portal && report.portal?.url == "http://login.example/")
        #expect(report.answer.interface == "eth0")
        #expect(report.paths.filter { $0.interface == "wlan0" }.allSatisfy { $0.conclusion.verdict == .online })
        #expect(report.paths.filter { $0.interface == "eth0" }.allSatisfy { $0.conclusion.verdict == .portal })
    }

    @Test func aDownPathIsOfflineAndSendsNothingWhileTheOthersAreProbed() throws {
        var snapshot = Kit.twoUplinks
        snapshot.interfaces[0].carrier = false  // eth0 lost carrier, its routes remain
        let runner = ScriptedRunner { _, _ in Kit.ok(5) }
        let report = try Kit.checker(snapshot, runner).run(Kit.options(allPaths: true))
        let eth0 = report.paths.filter { $0.interface == "eth0" }
        #expect(eth0.count == 2 && eth0.allSatisfy { $0.conclusion.reason == .noLink })
        #expect(!runner.requests.contains { $0.interface == "eth0" })
        // No preferred path works, so the best of all paths answers.
        #expect(report.verdict == .offline)
    }

    @Test func interfaceAndFamilyOptionsRestrictThePaths() throws {
        let runner = ScriptedRunner { _, _ in Kit.ok(5) }
        let report = try Kit.checker(Kit.twoUplinks, runner).run(Kit.options(allPaths: true, families: [.ipv6], interfaces: ["wlan0"]))
        #expect(report.paths.count == 1 && report.paths[0].interface == "wlan0" && report.paths[0].family == .ipv6)
        #expect(report.paths[0].isDefault == false && report.verdict == .online)
    }

    @Test func noDefaultRouteIsOnePathDown() throws {
        let runner = ScriptedRunner { _, _ in Kit.ok(5) }
        let report = try Kit.checker(Kit.noRoute, runner).run(Kit.options(allPaths: true))
        #expect(report.paths.count == 1 && report.reason == .noDefaultRoute && runner.rounds == 0)
    }
}
