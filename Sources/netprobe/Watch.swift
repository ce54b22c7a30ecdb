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

struct Watch: ParsableCommand {
    static let configuration = CommandConfiguration(
        // Named, not derived from the type name at every start (String(describing:) is costly).
        commandName: "watch",
        abstract: "Stay running; print a record at start and whenever the state changes.",
        discussion: """
            A change is a new verdict, reason, portal login URL or "partial", reported once it has \
            held for --hold seconds. Records are JSON Lines with --format json (the report plus \
            "event", "trigger", "previous", "previous_reason", "changed"), else one timestamped line \
            each. Re-checks when the kernel reports a link, address, route or policy-rule change (at once when the \
            change opens or closes a path, else debounced by 100 ms), a change of /etc/resolv.conf, a \
            lease or link state file that now announces another portal API or other resolvers, a \
            resume from suspend, every 1, 2, 4 ... 30 s while not online, and every --interval while \
            online (both spread by up to 10% at random), and before and after the end of a Captive \
            Portal API session (an "expiring" record once per session). Between those it sleeps in \
            poll(2). --timeout bounds each check (default: the probe set's timeout). An "alive" record \
            is written when nothing was for --heartbeat seconds, a "stop" record on a clean exit: both \
            repeat the state reported last, so `netprobe report` knows how long it is proven. Every \
            record carries the kernel's boot clocks ("boot_id", "boottime_seconds", "monotonic_seconds"), \
            and an "alive" record marks a resume ("resume") and a step of the wall clock ("clock"): a \
            sleep or a stepped clock is never counted as observed time. A check that fails is said on \
            stderr and tried again; it never ends watch. On a network whose last full checks found it online \
            (--state-directory keeps what each network taught across restarts), a re-check while online asks two \
            operators over plain HTTP (about 2 KB, "lean": true); any other answer runs the full check at once, \
            before any record (--full-rechecks: never lean).

            SIGINT/SIGTERM: finish the current record, end a running hook (SIGTERM to its process \
            group, SIGKILL half a second later), write the stop record, exit 0. SIGHUP: reload the \
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

    @Option(name: .customLong("hold"), parsing: .unconditional,
            help: ArgumentHelp("""
                Report a new state only once it has held this many decimal seconds, confirmed by re-checks about \
                once a second; a change that reverts within it reports nothing (0: at once; at most 3600).
                """, valueName: "seconds"),
            transform: Seconds.hold.parse("--hold"))
    var hold: Double = 3

    @Option(name: .customLong("textfile"),
            help: ArgumentHelp("""
                After every check, write the Prometheus metrics to FILE (atomically, mode 0644), for \
                node_exporter's textfile collector.
                """, valueName: "file"))
    var textfile: String?

    @Option(name: .customLong("session-warning"), parsing: .unconditional,
            help: ArgumentHelp("""
                Warn (an "expiring" record) this many decimal seconds before a Captive Portal API session ends \
                (default: 60, or a tenth of a session shorter than 10 minutes).
                """, valueName: "seconds"),
            transform: Seconds.sessionWarning.parse("--session-warning"))
    var sessionWarning: Double?

    @Option(name: .customLong("heartbeat"), parsing: .unconditional,
            help: ArgumentHelp("""
                Write an "alive" record when no record was written for this many decimal seconds, so a \
                log shows how long its last state is proven (0: none; else at least 1, at most 86400; default 900).
                """, valueName: "seconds"),
            transform: Seconds.heartbeat.parse("--heartbeat"))
    var heartbeat: Double = WatchSettings.defaultHeartbeat.inSeconds

    @Option(name: .customLong("state-directory"),
            help: ArgumentHelp("""
                Keep what each network taught in DIR/networks.json: when a full check last proved it and what \
                it found, its portal's login URL and API, whether it answers a DHCPINFORM, which operators it \
                intercepts. Read at start, written after checks that taught something; at most 64 networks \
                and 64 KiB, the least recently seen forgotten first (default: $STATE_DIRECTORY, which \
                systemd's StateDirectory= sets; with neither, remembered only while watch runs).
                """, valueName: "dir"))
    var stateDirectory: String?

    @Flag(name: .customLong("full-rechecks"), help: ArgumentHelp("""
        Never re-check lean: on a network that full checks proved open, every re-check still sends a \
        full first wave (about 5 KB) instead of two operators' plain HTTP (about 2 KB).
        """))
    var fullRechecks = false

    @Flag(name: .customLong("no-stall-detect"), help: ArgumentHelp("""
        Do not read the machine's TCP socket table (sock_diag) for stalls of the verdict's path \
        (re-checks with trigger "stall").
        """))
    var noStallDetect = false

    @Option(name: .customLong("exec-timeout"), parsing: .unconditional,
            help: ArgumentHelp("Kill a hook that runs longer than this many decimal seconds (above 0, at most 86400).", valueName: "seconds"),
            transform: Seconds.execTimeout.parse("--exec-timeout"))
    var execTimeout: Double = 10

    @Option(name: .customLong("exec"), parsing: .remaining,
            help: ArgumentHelp("""
                Run PROGRAM ARGS... (no shell) on every record, one at a time, with the JSON record on its \
                stdin and NETPROBE_EVENT, NETPROBE_TRIGGER, NETPROBE_VERDICT, NETPROBE_PREVIOUS, NETPROBE_REASON, \
                NETPROBE_FAULT, NETPROBE_FAULT_DETAIL, NETPROBE_PORTAL_URL, NETPROBE_PORTAL_EXPIRES_AT, NETPROBE_INTERFACE, NETPROBE_NETWORK_ID, NETPROBE_NETWORK_NAME set (with --all-paths also NETPROBE_PATH_INTERFACE and NETPROBE_PATH_FAMILY \
                of the changed path). Must come last: everything after it belongs to the hook.
                """, valueName: "program args"))
    var exec: [String] = []

    func validate() throws {
        if options.effectiveFormat == .prometheus { throw ValidationError("netprobe watch prints text or json, not prometheus.") }
        // `.remaining` accepts a bare trailing --exec as an empty list.
        if exec.first?.isEmpty ?? false || (exec.isEmpty && ProgramArguments.read()?.last == "--exec") {
            throw ValidationError("--exec needs a program.")
        }
        if heartbeat > 0 && heartbeat < 1 {
            throw ValidationError("--heartbeat: 0 (none) or at least 1 second; a shorter one would fill the log.")
        }
        if let stateDirectory {
            var status = stat()
            guard stat(stateDirectory, &status) == 0, status.st_mode & S_IFMT == S_IFDIR else {
                throw ValidationError("--state-directory: '\(TerminalText.escape(stateDirectory))' is not a directory.")
            }
        }
        if let program = exec.first, !HookRunner.canRun(program) {
            throw ValidationError("--exec: '\(TerminalText.escape(program))' is not an executable file or a program in $PATH.")
        }
    }

    func run() throws {
        SignalInbox.ignoreBrokenPipe()
        let config = try options.loadConfig()
        do {
            let signals = try SignalInbox(catching: [SIGINT, SIGTERM, SIGHUP, SIGCHLD])
            let checkOptions = watchOptions(config)
            let waiter = try ChangeWaiter(signals: signals, wakeOn: [SIGINT, SIGTERM, SIGHUP],
                                          watchingOutput: options.quiet ? nil : STDOUT_FILENO,
                                          leaseDirectories: checkOptions.leases.directories)
            let checker = Checker()
            checker.tracksLeases = true
            let memory = memoryStore()
            if let memory {
                let loaded = memory.load()
                if let problem = loaded.problem { Log.note("--state-directory: \(memory.path): \(problem)") }
                checker.networkMemory = loaded.memory
            }
            let hook = exec.isEmpty ? nil : HookRunner(argv: exec, timeLimit: .milliseconds(Int64(execTimeout * 1000)), signals: signals,
                                                       stopSignals: [SIGINT, SIGTERM])
            let output = WatchOutput(command: self, signals: signals, hook: hook, textfile: textfile.map(TextfileWriter.init),
                                     memory: memory)
            let settings = WatchSettings(interval: .milliseconds(Int64(interval * 1000)), hold: .milliseconds(Int64(hold * 1000)),
                                         sessionWarning: sessionWarning.map { .milliseconds(Int64($0 * 1000)) }, allPaths: allPaths,
                                         heartbeat: heartbeat > 0 ? .milliseconds(Int64(heartbeat * 1000)) : nil)
            var sockets: TCPSocketTable?
            if !noStallDetect {
                do {
                    sockets = try TCPSocketTable()
                } catch {
                    Log.note("stall detection is off: \(error.description)")
                }
            }
            let loop = WatchLoop(checker: checker, events: waiter, options: checkOptions,
                                 settings: settings, handler: output, sockets: sockets)
            try loop.run()
        } catch {
            // CheckError, SignalSetupError, PollError: all say what failed in their description.
            throw Output.fail(String(describing: error), status: ExitStatus.internalError)
        }
    }

    /// SIGHUP: the same lookup as at start. A bad file is reported and the running configuration kept (nil).
    func reload() -> CheckOptions? {
        do {
            let (fresh, source) = try ConfigLookup.resolve(explicit: options.config)
            Log.note("SIGHUP: reloaded the configuration from \(source)")
            return watchOptions(fresh)
        } catch {
            Log.note("SIGHUP: keeping the previous configuration; the new one is invalid:\n\(error.description)")
            return nil
        }
    }

    /// Where what each network taught is kept: --state-directory, else the first directory of
    /// $STATE_DIRECTORY (systemd's StateDirectory=); nil: nowhere but in this process.
    func memoryStore() -> NetworkMemoryStore? {
        let directory = stateDirectory
            ?? ProcessEnvironment.value("STATE_DIRECTORY")?.split(separator: ":").first.map(String.init)
        guard let directory, !directory.isEmpty else { return nil }
        return NetworkMemoryStore(directory: directory)
    }

    /// A check's options as watch runs it: lean re-checks unless --full-rechecks.
    func watchOptions(_ config: ProbeConfig) -> CheckOptions {
        var checkOptions = options.checkOptions(config: config, allPaths: allPaths)
        checkOptions.lean = !fullRechecks
        return checkOptions
    }

    func runHook(_ hook: HookRunner, _ record: WatchRecord) {
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
