import ArgumentParser
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Glibc
import NetprobeCore
import NetprobeKit

struct Watch: ParsableCommand {
    static let configuration = CommandConfiguration(
        // Named, not derived from the type name at every start (String(describing:) is costly).
        commandName: "watch",
        abstract: "Stay running; print a record at start and whenever the state changes.",
        discussion: """
            A change is a new verdict, a new reason, or a new portal login URL. Records are JSON \
            Lines with --format json (the report plus "event", "previous", "previous_reason", \
            "changed"), else one timestamped line each. Re-checks when the kernel reports a link, \
            address or route change (at once when the change opens or closes a path, else \
            debounced by 100 ms) or a change of /etc/resolv.conf, every 1, 2, 4 ... 30 s while not \
            online, and every --interval while online. Between those it sleeps in poll(2). \
            --timeout bounds each check (default: the probe set's timeout).

            SIGINT/SIGTERM: finish the current record, end a running hook (SIGTERM to its process \
            group, SIGKILL half a second later), exit 0. SIGHUP: reload the \
            configuration (--config, $NETPROBE_CONFIG, /etc/netprobe/probes.json, built-in); a bad \
            one is reported on stderr and the old one kept. A closed stdout ends watch quietly \
            (exit 0).
            """
    )

    @OptionGroup var options: ProbeOptions

    @Flag(name: .customLong("all-paths"), help: ArgumentHelp(
        "Probe every path on its own; a record whenever any path's verdict or reason changes.",
        discussion: "Hooks find the changed path in NETPROBE_PATH_INTERFACE and NETPROBE_PATH_FAMILY."))
    var allPaths = false

    @Option(name: .customLong("interval"), parsing: .unconditional,
            help: ArgumentHelp("Decimal seconds between re-checks while online (at least 0.1, at most 604800).", valueName: "seconds"),
            transform: Seconds.interval.parse("--interval"))
    var interval: Double = 300

    @Option(name: .customLong("exec-timeout"), parsing: .unconditional,
            help: ArgumentHelp("Kill a hook that runs longer than this many decimal seconds (above 0, at most 86400).", valueName: "seconds"),
            transform: Seconds.execTimeout.parse("--exec-timeout"))
    var execTimeout: Double = 10

    @Option(name: .customLong("exec"), parsing: .remaining,
            help: ArgumentHelp("""
                Run PROGRAM ARGS... (no shell) on every record, one at a time, with the JSON record on its \
                stdin and NETPROBE_VERDICT, NETPROBE_PREVIOUS, NETPROBE_REASON, NETPROBE_PORTAL_URL, \
                NETPROBE_INTERFACE set (with --all-paths also NETPROBE_PATH_INTERFACE and NETPROBE_PATH_FAMILY \
                of the changed path). Must come last: everything after it belongs to the hook.
                """, valueName: "program args"))
    var exec: [String] = []

    func validate() throws {
        if options.effectiveFormat == .prometheus { throw ValidationError("netprobe watch prints text or json, not prometheus.") }
        // `.remaining` accepts a bare trailing --exec as an empty list.
        if exec.first?.isEmpty ?? false || (exec.isEmpty && CommandLine.arguments.last == "--exec") {
            throw ValidationError("--exec needs a program.")
        }
        if let program = exec.first, !HookRunner.canRun(program) {
            throw ValidationError("--exec: '\(TerminalText.escape(program))' is not an executable file or a program in $PATH.")
        }
    }

    func run() throws {
        SignalInbox.ignoreBrokenPipe()
        var config = try options.loadConfig()
        do {
            let signals = try SignalInbox(catching: [SIGINT, SIGTERM, SIGHUP, SIGCHLD])
            let waiter = try ChangeWaiter(signals: signals, wakeOn: [SIGINT, SIGTERM, SIGHUP],
                                          watchingOutput: options.quiet ? nil : STDOUT_FILENO)
            let hook = exec.isEmpty ? nil : HookRunner(argv: exec, timeLimit: .milliseconds(Int64(execTimeout * 1000)), signals: signals,
                                                       stopSignals: [SIGINT, SIGTERM])
            try loop(config: &config, waiter: waiter, signals: signals, hook: hook)
        } catch {
            // CheckError, SignalSetupError, PollError: all say what failed in their description.
            throw Output.fail(String(describing: error), status: ExitStatus.internalError)
        }
    }

    /// Returns (exit 0) on SIGINT/SIGTERM or when stdout is gone.
    private func loop(config: inout ProbeConfig, waiter: ChangeWaiter, signals: SignalInbox, hook: HookRunner?) throws {
        let clock = ContinuousClock()
        let checker = Checker()  // one for the whole run: its HTTP client is reused
        var checkOptions = options.checkOptions(config: config, allPaths: allPaths)
        var backoff = Backoff()
        var previous: Report?
        while true {
            waiter.beginCheck()
            let report = try checker.run(checkOptions)
            if let record = WatchRecord.after(previous, report, allPaths: allPaths) {
                if !options.quiet {
                    guard RecordOutput.write(options.effectiveFormat == .json ? record.json : record.text) else { return }
                }
                if let hook {
                    runHook(hook, record)
                    // A stop signal ends the hook (HookRunner) and then watch: the record is out.
                    if signals.hasPending([SIGINT, SIGTERM]) { return }
                }
                backoff.reset()
            }
            previous = report
            let delay = report.verdict == .online ? Duration.milliseconds(Int64(interval * 1000)) : backoff.next()
            let timer = clock.now + delay
            // Ready to send the moment the path changes: libcurl is loaded now, not then.
            checker.prepare()
            waiting: while true {
                switch try waiter.next(until: timer, decisive: { checker.gateMoved(checkOptions) }) {
                case .pathChanged:
                    backoff.reset()
                    break waiting
                case .timer:
                    break waiting
                case .outputClosed:
                    return
                case .signal:
                    let interrupted = signals.take(SIGINT)
                    if signals.take(SIGTERM) || interrupted { return }
                    if signals.take(SIGHUP), reload(into: &config) {
                        checkOptions = options.checkOptions(config: config, allPaths: allPaths)
                        break waiting
                    }
                }
            }
        }
    }

    /// SIGHUP: the same lookup as at start. A bad file is reported and the running configuration kept.
    private func reload(into config: inout ProbeConfig) -> Bool {
        do {
            let (fresh, source) = try ConfigLookup.resolve(explicit: options.config)
            config = fresh
            Log.note("SIGHUP: reloaded the configuration from \(source)")
            return true
        } catch {
            Log.note("SIGHUP: keeping the previous configuration; the new one is invalid:\n\(error.description)")
            return false
        }
    }

    private func runHook(_ hook: HookRunner, _ record: WatchRecord) {
        let outcome = hook.run(environment: record.environment, input: Array((record.json + "\n").utf8))
        // The program name and errno text come from the command line and the system: escaped by Log.
        switch outcome {
        case .exited(0): break
        case .exited(let status): Log.note("hook \(hook.argv[0]) exited with status \(status)")
        case .signaled(let signal): Log.note("hook \(hook.argv[0]) died of signal \(signal)")
        case .killed: Log.note("hook \(hook.argv[0]) ran longer than \(execTimeout) s and was killed")
        case .stopped: Log.note("hook \(hook.argv[0]) was ended: netprobe is stopping")
        case .couldNotStart(let message): Log.note("hook could not start: \(message)")
        }
    }
}

/// Diagnostics on stderr; under systemd they land in the journal, apart from the records.
/// Every message is escaped here, at the edge, whatever its parts were.
enum Log {
    static func note(_ message: String) {
        FileOutput.write("netprobe: \(TerminalText.escapeLines(message))\n", to: STDERR_FILENO)
    }
}
