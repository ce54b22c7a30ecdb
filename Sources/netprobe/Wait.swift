import ArgumentParser
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Glibc
import NetprobeWire
import NetprobeVerdict
import NetprobeOutput
import NetprobeReport
import NetprobeSystem
import NetprobeNetwork
import NetprobeCheck
import NetprobeWatch

struct Wait: ParsableCommand {
    /// Long enough for DHCP and a slow Wi-Fi association, short enough that a CI job fails in reasonable time.
    static let defaultTimeout = 60.0

    static let configuration = CommandConfiguration(
        // Named, not derived from the type name at every start (String(describing:) is costly).
        commandName: "wait",
        abstract: "Block until online, or until --timeout (default 60 s for wait).",
        discussion: """
            Checks at once; while not online, re-checks as soon as the kernel reports a link, \
            address, route or policy-rule change (at once when the change opens or closes the path, else \
            debounced by 100 ms) or a change of /etc/resolv.conf, and otherwise after 1, 2, 4 ... up to \
            30 s. --timeout is a hard deadline for the whole wait (default 60 s, not the probe \
            set's timeout); each check gets at most the time that is left. On a terminal, a \
            progress line on stderr says what netprobe is waiting for. The last report is printed \
            in the chosen format. Exit status: 0 online, 1 deadline passed while offline, \
            2 deadline passed behind a captive portal, 64 bad command line, 70 internal error, \
            78 bad configuration.
            """
    )

    @OptionGroup var options: ProbeOptions

    func run() throws {
        let config = try options.loadConfig()
        let report: Report
        do {
            report = try waitUntilOnline(config: config)
        } catch {
            throw Output.fail(String(describing: error), status: ExitStatus.internalError)
        }
        if !options.quiet { Output.write(Output.render(report, format: options.effectiveFormat)) }
        throw ExitCode(report.exitCode)
    }

    private func waitUntilOnline(config: ProbeConfig) throws -> Report {
        let deadline = ContinuousClock.now + .milliseconds(Int64((options.timeout ?? Self.defaultTimeout) * 1000))
        // Subscribe before the first check: a route that appears during it still wakes us.
        let waiter = try ChangeWaiter()
        var progress = WaitProgress(enabled: !options.quiet && isatty(STDERR_FILENO) == 1, interfaces: options.interface)
        defer { progress.clear() }
        let loop = WaitLoop(checker: Checker(), changes: waiter, options: options.checkOptions(config: config), deadline: deadline,
                            progress: { progress.show($0) })
        return try loop.run()
    }
}
