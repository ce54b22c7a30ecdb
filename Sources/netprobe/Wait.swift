import ArgumentParser
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Glibc
import NetprobeCore
import NetprobeKit

struct Wait: ParsableCommand {
    /// Long enough for DHCP and a slow Wi-Fi association, short enough that a CI job fails in reasonable time.
    static let defaultTimeout = 60.0

    static let configuration = CommandConfiguration(
        // Named, not derived from the type name at every start (String(describing:) is costly).
        commandName: "wait",
        abstract: "Block until online, or until --timeout (default 60 s for wait).",
        discussion: """
            Checks at once; while not online, re-checks as soon as the kernel reports a link, \
            address or route change (at once when the change opens or closes the path, else \
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
        let clock = ContinuousClock()
        let deadline = clock.now + .milliseconds(Int64((options.timeout ?? Self.defaultTimeout) * 1000))
        let checkOptions = options.checkOptions(config: config)
        // Subscribe before the first check: a route that appears during it still wakes us.
        let waiter = try ChangeWaiter()
        let checker = Checker()
        var progress = WaitProgress(enabled: !options.quiet && isatty(STDERR_FILENO) == 1, interfaces: options.interface)
        defer { progress.clear() }
        var backoff = Backoff()
        var last: Report?
        while true {
            waiter.beginCheck()
            let remaining = seconds(clock.now.duration(to: deadline))
            let truncated = remaining < config.timeout
            let report = try checker.run(checkOptions.with(timeout: max(min(remaining, config.timeout), 0.001)))
            if report.verdict == .online { return report }
            // A check the deadline cut short and that ran out of time says nothing new:
            // keep the previous, complete verdict (a portal stays a portal, exit 2).
            if !(truncated && report.reason == .timeout && last != nil) { last = report }
            guard let current = last, clock.now < deadline else { return last ?? report }
            progress.show(current)
            // Ready to send the moment the route appears: libcurl is loaded now, not then.
            checker.prepare()
            let timer = min(clock.now + backoff.next(), deadline)
            if try waiter.next(until: timer, decisive: { checker.gateMoved(checkOptions) }) == .pathChanged { backoff.reset() }
            if clock.now >= deadline { return current }
        }
    }

    private func seconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
    }
}
