import Foundation
import Testing

/// A bad command line is exit 64, with the problem on stderr, before anything is
/// read from the kernel or sent.
@Suite(.timeLimit(.minutes(2)))
struct CommandLineTests {
    @Test(arguments: [
        ["--no-such-option"],
        ["--timeout", "-1"],
        ["--timeout", "0"],
        ["--timeout", "abc"],
        ["--timeout", "1e9"],
        ["-4", "-6"],
        ["--format", "xml"],
        ["--config"],
        ["check", "extra-argument"],
        ["-i", ""],
        ["-i", "a/b"],
        ["no-such-command"],
    ])
    func badCommandLineIsExit64(arguments: [String]) throws {
        let sandbox = try Sandbox()
        let run = try sandbox.run(arguments, network: .loopbackOnly)
        #expect(run.status == 64, "\(run)")
        #expect(!run.stderr.isEmpty, "\(run)")
        #expect(run.stdout.isEmpty, "\(run)")
        #expect(run.loopbackPacketsSent == 0, "\(run.stats)")
    }

    @Test func configCheckWithUnknownOptionIsExit64() throws {
        let sandbox = try Sandbox()
        let run = try sandbox.run(["config", "check", "--bogus"], network: .loopbackOnly)
        #expect(run.status == 64, "\(run)")
    }

    /// The fixed option names of CONTRACT.md are all accepted (here on the gate's offline path).
    @Test(arguments: [
        ["check"],
        ["check", "--json"],
        ["-4"],
        ["-6"],
        ["--timeout", "2.5"],
        ["-i", "d0"],
        ["--interface", "d0", "--interface", "d1"],
        ["--format", "text"],
        ["--format", "prometheus"],
        ["-q"],
    ])
    func contractOptionsAreAccepted(arguments: [String]) throws {
        let sandbox = try Sandbox()
        let run = try sandbox.run(arguments, network: .loopbackOnly)
        #expect(run.status == 1, "\(run)")
        #expect(run.loopbackPacketsSent == 0, "\(run.stats)")
    }

    @Test func helpAndVersionExitZero() throws {
        let sandbox = try Sandbox()
        let help = try sandbox.run(["--help"], network: .loopbackOnly)
        #expect(help.status == 0, "\(help)")
        #expect(help.stdout.contains("--timeout"), "\(help)")
        let version = try sandbox.run(["--version"], network: .loopbackOnly)
        #expect(version.status == 0, "\(version)")
        #expect(!version.stdout.isEmpty, "\(version)")
    }

    /// An interface that does not exist cannot carry anything: offline no-link, nothing sent.
    @Test func unknownInterfaceIsNoLink() throws {
        let sandbox = try Sandbox()
        let config = try sandbox.write(ProbeSet.healthy(3))
        let run = try sandbox.run(["--json", "-i", "nosuch0", "--config", config], servers: [ProbeSet.httpServer])
        #expect(run.status == 1, "\(run)")
        let report = try run.report()
        #expect(report.reason == "no-link", "\(run)")
        #expect(run.loopbackPacketsSent == 0, "\(run.stats)")
    }
}
