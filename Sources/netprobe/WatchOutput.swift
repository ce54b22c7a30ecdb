import Glibc
import NetprobeWire
import NetprobeVerdict
import NetprobeOutput
import NetprobeReport
import NetprobeSystem
import NetprobeNetwork
import NetprobeCheck
import NetprobeWatch

/// Where `watch`'s records and metrics go: stdout (unless --quiet), the hook (--exec), the
/// textfile (--textfile); and what its signals mean.
final class WatchOutput: WatchHandler {
    private let command: Watch
    private let signals: SignalInbox
    private let hook: HookRunner?
    private let textfile: TextfileWriter?
    /// The last textfile error reported: the same one is not repeated after every check.
    private var lastTextfileError: String?
    private let memory: NetworkMemoryStore?
    /// The last error writing the network memory reported, likewise.
    private var lastMemoryError: String?

    init(command: Watch, signals: SignalInbox, hook: HookRunner?, textfile: TextfileWriter?, memory: NetworkMemoryStore? = nil) {
        self.command = command
        self.signals = signals
        self.hook = hook
        self.textfile = textfile
        self.memory = memory
    }

    func remember(_ learnt: NetworkMemory) {
        guard let memory else { return }
        do {
            try memory.save(learnt)
            lastMemoryError = nil
        } catch {
            // Reported once, then tried again after the next check that teaches something.
            if lastMemoryError != error.description { Log.note("--state-directory: \(error.description)") }
            lastMemoryError = error.description
        }
    }

    func deliver(_ record: WatchRecord) -> Bool {
        if !command.options.quiet {
            guard RecordOutput.write(command.options.effectiveFormat == .json ? record.json : record.text) else { return false }
        }
        if let hook {
            command.runHook(hook, record)
            // A stop signal ends the hook (HookRunner) and then watch: the record is out.
            if signals.hasPending([SIGINT, SIGTERM]) { return false }
        }
        return true
    }

    func write(_ record: WatchRecord) -> Bool {
        if command.options.quiet { return true }
        return RecordOutput.write(command.options.effectiveFormat == .json ? record.json : record.text)
    }

    func checked(reported: Report, counters: WatchCounters) {
        guard let textfile else { return }
        do {
            try textfile.write(PrometheusFormatter.format(reported, watch: counters))
            if lastTextfileError != nil { Log.note("--textfile: \(textfile.path) written again") }
            lastTextfileError = nil
        } catch {
            // Reported once, then retried at every check: a full disk or a missing directory may recover.
            if lastTextfileError != error.description { Log.note("--textfile: \(error.description)") }
            lastTextfileError = error.description
        }
    }

    func checkFailed(_ error: CheckError, retryIn: Duration) {
        Log.note("check failed, trying again in \(Int(retryIn.inSeconds.rounded(.up))) s: \(error.description)")
    }

    func signalArrived() -> WatchSignalAction {
        let interrupted = signals.take(SIGINT)
        if signals.take(SIGTERM) || interrupted { return .stop }
        if signals.take(SIGHUP), let fresh = command.reload() { return .reload(fresh) }
        return .keepWaiting
    }
}

/// Records go to stdout with write(2), so a reader that went away is an error
/// we see (EPIPE, with SIGPIPE ignored), not a crash or a silent loss.
enum RecordOutput {
    /// False when stdout is gone: the caller ends quietly.
    static func write(_ line: String) -> Bool {
        FileOutput.write(line + "\n", to: STDOUT_FILENO)
    }
}
