import ArgumentParser
#if canImport(Glibc)
import Glibc
#endif
import NetprobeWire
import NetprobeVerdict
import NetprobeOutput
import NetprobeReport
import NetprobeSystem
import NetprobeNetwork
import NetprobeCheck
import NetprobeWatch

/// The entry point: swift-argument-parser's own `main()` prints its errors ("Unknown option
/// '\e[2J'", "The value '...' is invalid") with the command line's bytes raw. Here every
/// message it renders goes through the one terminal escaper; exit statuses stay its own
/// (64 for a bad command line, 0 for --help and --version).
@main
enum Entry {
    static func main() {
        // Read without /proc; none at all is refused, never taken for the default command (a check).
        guard let arguments = ProgramArguments.read() else {
            FileOutput.write("netprobe: cannot read the command line (no arguments were passed to the program)\n", to: STDERR_FILENO)
            finish(ExitStatus.internalError)
        }
        if let option = overlongOption(arguments) {
            // Refused before the parser sees it: its "did you mean" search is quadratic in the
            // name's length (a 128 KiB option costs it seconds of CPU).
            let shown = TerminalText.escape(option, limit: 64)
            FileOutput.write("Error: Unknown option '\(shown)'\nUsage: netprobe --help\n", to: STDERR_FILENO)
            finish(ExitStatus.usage)
        }
        do {
            var command = try Netprobe.parseAsRoot(Array(arguments.dropFirst()))
            try command.run()
            finish(0)
        } catch let code as ExitCode {
            // A verdict's status (or a failure already printed): nothing to render, so the
            // parser's message machinery, a large part of an offline check, is never built.
            finish(code.rawValue)
        } catch {
            finish(Self.report(error))
        }
    }

    /// Ends the process with `_exit`, once the answer is out: every write is a write(2),
    /// nothing waits in a buffer. What `exit` would add is libraries tidying memory the kernel
    /// frees anyway (OpenSSL's atexit cleanup above all), while libcurl's
    /// resolver threads of abandoned probes may still be running.
    static func finish(_ status: Int32) -> Never {
        _exit(status)
    }

    /// An option name longer than any netprobe has (64 bytes), before `--exec` or `--` (after
    /// them, arguments belong to the hook).
    static func overlongOption(_ arguments: [String]) -> String? {
        for argument in arguments.dropFirst() {
            if argument == "--" || argument == "--exec" || argument.hasPrefix("--exec=") { return nil }
            guard argument.hasPrefix("-"), let name = argument.split(separator: "=", maxSplits: 1).first else { continue }
            if name.utf8.count > 64 { return argument }
        }
        return nil
    }

    /// Prints what the parser would print for `error`, escaped; returns the exit status.
    static func report(_ error: Error) -> Int32 {
        let status = Netprobe.exitCode(for: error).rawValue
        let message = Netprobe.fullMessage(for: error)
        if !message.isEmpty {
            // Help, version and completion scripts are answers (stdout, tabs kept for their
            // layout); everything else is a complaint (stderr).
            let text = TerminalText.escapeLines(message, keepTabs: status == 0) + "\n"
            FileOutput.write(text, to: status == 0 ? STDOUT_FILENO : STDERR_FILENO)
        }
        return status
    }
}

struct Netprobe: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "netprobe",
        abstract: "Tell, fast and with evidence, whether this machine is online, behind a captive portal, or offline.",
        discussion: """
            netprobe joins what the kernel knows (links, addresses, routes) with what the network \
            answers (HTTP probes of well-known "success" pages). Link and route state can only ever \
            prove "offline"; "online" needs a quorum of independent endpoints answering exactly as \
            expected; a redirect, a 511 or a foreign page on a probe is a captive portal speaking.

            Exit status: 0 online, 1 offline, 2 portal, 64 bad command line, 66 a file that report \
            cannot read, 70 internal error, 78 bad configuration.

            Examples:
              netprobe                         one-shot check, text
              netprobe --json | jq .verdict    machine-readable
              netprobe wait --timeout 60 && ./deploy
              netprobe path                    links, addresses, routes, DNS; sends nothing
              netprobe config check probes.json
              netprobe report --format html watch.jsonl > report.html

            See netprobe(1) for the verdict rules and every reason code.
            """,
        version: "0.1.0",
        subcommands: [Check.self, Path.self, ConfigCommand.self, Wait.self, Watch.self, ReportCommand.self],
        defaultSubcommand: Check.self
    )
}
