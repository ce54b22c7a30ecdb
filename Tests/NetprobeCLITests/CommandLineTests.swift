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
        ["--proxy", "http://proxy.example:3128", "--no-proxy"],
        ["--proxy", "ftp://proxy.example:21"],
        ["--proxy", "http://"],
        ["wait", "--no-proxy", "--proxy", "socks5h://127.0.0.1:1080"],
        ["wait", "--all-paths"],
    ])
    func badCommandLineIsExit64(arguments: [String]) throws {
        let sandbox = try Sandbox()
        let run = try sandbox.run(arguments, network: .loopbackOnly)
        #expect(run.status == 64, "\(run)")
        #expect(!run.stderr.isEmpty, "\(run)")
        #expect(run.stdout.isEmpty, "\(run)")
        #expect(run.loopbackPacketsSent == 0, "\(run.stats)")
    }

    /// A bad proxy URL names where it came from and never shows credentials.
    @Test func badProxyURLsAreNamedWithoutTheirSecret() throws {
        let sandbox = try Sandbox()
        let option = try sandbox.run(["--proxy", "gopher://user:secret@proxy.example:70"], network: .loopbackOnly)
        #expect(option.status == 64 && option.stderr.contains("--proxy") && !option.stderr.contains("secret"), "\(option)")
    }

    @Test func configCheckWithUnknownOptionIsExit64() throws {
        let sandbox = try Sandbox()
        let run = try sandbox.run(["config", "check", "--bogus"], network: .loopbackOnly)
        #expect(run.status == 64, "\(run)")
    }

    /// The option names scripts and units rely on are all accepted (here on the gate's offline path).
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
        ["--all-paths"],
        ["--proxy", "http://user:secret@proxy.example:3128"],
        ["--proxy", "socks5h://127.0.0.1:1080"],
        ["--no-proxy"],
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

    /// Without /proc (a bare chroot, a minimal container) the command line is still the one
    /// given: `--version` prints the version and a bad option is refused, where Swift's own
    /// reading (/proc/self/cmdline) finds no arguments and the default command, a check, would run.
    @Test func theCommandLineIsReadWithoutProc() throws {
        let sandbox = try Sandbox()
        // A mount namespace of its own inside the test's, so the tmpfs hides /proc from netprobe alone.
        let noProc = ["unshare", "--mount", "--propagation", "private", "sh", "-c",
                      "mount -t tmpfs none /proc && [ ! -e /proc/self ] && exec \"$@\"", "sh"]
        let reference = try sandbox.run(["--version"], network: .loopbackOnly)
        let version = try sandbox.run(["--version"], network: .loopbackOnly, wrapper: noProc)
        #expect(version.status == 0 && version.stdout == reference.stdout && !version.stdout.isEmpty, "\(version)")
        #expect(version.loopbackPacketsSent == 0, "\(version.stats)")
        let bad = try sandbox.run(["--no-such-option"], network: .loopbackOnly, wrapper: noProc)
        #expect(bad.status == 64 && bad.stderr.contains("--no-such-option"), "\(bad)")
        let help = try sandbox.run(["watch", "--help"], network: .loopbackOnly, wrapper: noProc)
        #expect(help.status == 0 && help.stdout.contains("--heartbeat"), "\(help)")
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
