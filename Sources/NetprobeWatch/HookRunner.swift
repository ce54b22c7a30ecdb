#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import CLibc
import Glibc
import NetprobeWire
import NetprobeVerdict
import NetprobeOutput
import NetprobeSystem
import NetprobeNetwork
import NetprobeCheck

/// How one hook run ended.
public enum HookOutcome: Sendable, Equatable {
    case exited(Int32)
    case signaled(Int32)
    /// It outlived the time limit and was killed (SIGKILL to its process group).
    case killed
    /// netprobe is stopping (one of the runner's stop signals arrived): the hook was never
    /// started, or it was ended by the SIGTERM or the SIGKILL sent to its process group.
    case stopped
    case couldNotStart(String)
}

/// Runs `watch --exec PROGRAM ARGS...` for one record: argv exactly as given (no
/// shell), the record's JSON on stdin, NETPROBE_* in the environment, and a hard
/// time limit. Runs are sequential by construction: `run` returns only once the
/// hook has exited or been killed, so hooks never overlap.
///
/// A stop signal (SIGINT, SIGTERM for watch) does not wait for the hook: systemd's stop
/// would otherwise end in SIGKILL for netprobe after its own timeout. The hook's process
/// group gets SIGTERM, `stopGrace` to exit, then SIGKILL.
///
/// The hook's stdout goes to netprobe's stderr: netprobe's stdout carries records
/// (JSON Lines) that a hook's chatter must not corrupt.
public final class HookRunner {
    public let argv: [String]
    public let timeLimit: Duration
    /// How long a hook may take to exit after SIGTERM when netprobe is stopping; short enough
    /// that watch exits within a second of the signal.
    public static let stopGrace: Duration = .milliseconds(500)
    private let signals: SignalInbox
    private let stopSignals: Set<Int32>
    private let clock = ContinuousClock()

    /// `signals` must catch SIGCHLD: its byte in the self-pipe is what wakes the
    /// wait for the hook, so there is no polling loop and no sleep. `stopSignals` (caught by
    /// `signals` too) end a running hook at once; they stay pending for the caller.
    public init(argv: [String], timeLimit: Duration, signals: SignalInbox, stopSignals: Set<Int32> = []) {
        precondition(!argv.isEmpty, "a hook needs a program")
        self.argv = argv
        self.timeLimit = timeLimit
        self.signals = signals
        self.stopSignals = stopSignals
    }

    /// Whether `program` names something posix_spawnp can run: a path, or a name found in
    /// $PATH. Checked at startup so a typo is a usage error, not a failure at the first change.
    public static func canRun(_ program: String, path: String? = ProcessInfo.processInfo.environment["PATH"]) -> Bool {
        guard !program.isEmpty else { return false }
        if program.contains("/") { return isExecutableFile(program) }
        let directories = (path ?? "/usr/local/bin:/usr/bin:/bin").split(separator: ":", omittingEmptySubsequences: false)
        return directories.contains { isExecutableFile(($0.isEmpty ? "." : String($0)) + "/" + program) }
    }

    private static func isExecutableFile(_ path: String) -> Bool {
        var info = stat()
        return stat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFREG && access(path, X_OK) == 0
    }

    public func run(environment extra: [String: String], input: [UInt8]) -> HookOutcome {
        guard let stdin = Pipe.make(nonblockingRead: false, nonblockingWrite: true) else {
            return .couldNotStart("pipe: \(String(cString: strerror(errno)))")
        }
        // A SIGCHLD from an earlier hook must not be mistaken for this one's.
        signals.collect()
        _ = signals.take(SIGCHLD)
        if signals.hasPending(stopSignals) {
            close(stdin.read)
            close(stdin.write)
            return .stopped
        }
        let pid: pid_t
        switch spawn(stdin: stdin.read, environment: extra) {
        case .success(let spawned): pid = spawned
        case .failure(let message):
            close(stdin.read)
            close(stdin.write)
            return .couldNotStart(message)
        }
        close(stdin.read)
        return supervise(pid, feeding: input, through: stdin.write)
    }

    /// Feeds stdin as the hook takes it, and waits for its exit or the time limit.
    private func supervise(_ pid: pid_t, feeding input: [UInt8], through writeEnd: Int32) -> HookOutcome {
        let deadline = clock.now + timeLimit
        var inputFD: Int32? = writeEnd
        var offset = 0
        defer { if let inputFD { close(inputFD) } }
        while true {
            if let status = reap(pid, blocking: false) { return status }
            if signals.hasPending(stopSignals) { return stop(pid) }
            let now = clock.now
            if now >= deadline {
                // Its own process group (POSIX_SPAWN_SETPGROUP): -pid kills the hook and what it started.
                kill(-pid, SIGKILL)
                _ = reap(pid, blocking: true)
                return .killed
            }
            if let fd = inputFD, offset >= input.count {
                close(fd)  // EOF for the hook
                inputFD = nil
            }
            var entries = [pollfd(fd: signals.fileDescriptor, events: Int16(POLLIN), revents: 0)]
            if let fd = inputFD { entries.append(pollfd(fd: fd, events: Int16(POLLOUT), revents: 0)) }
            let ready = poll(&entries, nfds_t(entries.count), pollMilliseconds(until: deadline, now: now))
            guard ready > 0 else { continue }  // timeout or EINTR: the checks at the top decide
            if entries[0].revents != 0 { signals.collect() }  // SIGCHLD or a stop signal (both stay pending for the caller)
            if let fd = inputFD, entries.count > 1, entries[1].revents != 0 {
                let written = input.withUnsafeBytes { write(fd, $0.baseAddress! + offset, input.count - offset) }
                if written > 0 {
                    offset += written
                } else if written < 0 && errno != EAGAIN && errno != EINTR {
                    close(fd)  // EPIPE: the hook does not read its stdin; that is its business
                    inputFD = nil
                }
            }
        }
    }

    /// Ends the hook's process group: SIGTERM, up to `stopGrace` for the hook to exit (woken by
    /// its SIGCHLD), then SIGKILL for whatever is left of the group. The hook is reaped only
    /// after that: until then its PID, which names the group, cannot be given to another process.
    /// A hook that exits with a status of its own (it handled SIGTERM, or was ending anyway)
    /// is reported with that status.
    private func stop(_ pid: pid_t) -> HookOutcome {
        kill(-pid, SIGTERM)
        let deadline = clock.now + Self.stopGrace
        while !hasExited(pid) {
            let now = clock.now
            guard now < deadline else { break }
            var entry = pollfd(fd: signals.fileDescriptor, events: Int16(POLLIN), revents: 0)
            if poll(&entry, 1, pollMilliseconds(until: deadline, now: now)) > 0 { signals.collect() }
        }
        kill(-pid, SIGKILL)
        guard case .exited(let status)? = reap(pid, blocking: true) else { return .stopped }
        return .exited(status)
    }

    /// Whether the hook has exited, without reaping it (WNOWAIT).
    private func hasExited(_ pid: pid_t) -> Bool {
        var info = siginfo_t()
        guard waitid(P_PID, id_t(pid), &info, WEXITED | WNOHANG | WNOWAIT) == 0 else {
            return errno != EINTR  // ECHILD: nothing left to wait for
        }
        // si_pid is a C macro for this union member; it stays 0 while the child runs.
        return info._sifields._kill.si_pid == pid
    }

    private func reap(_ pid: pid_t, blocking: Bool) -> HookOutcome? {
        var status: Int32 = 0
        while true {
            let result = waitpid(pid, &status, blocking ? 0 : WNOHANG)
            if result == pid { break }
            if result < 0 && errno == EINTR { continue }
            if result == 0 { return nil }
            return .exited(127)  // ECHILD: someone else reaped it; nothing more to know
        }
        // WIFEXITED / WEXITSTATUS / WTERMSIG are C macros Swift cannot see.
        let signal = status & 0x7f
        return signal == 0 ? .exited((status >> 8) & 0xff) : .signaled(signal)
    }

    private enum SpawnResult {
        case success(pid_t)
        case failure(String)
    }

    private func spawn(stdin: Int32, environment extra: [String: String]) -> SpawnResult {
        var actions = posix_spawn_file_actions_t()
        var attributes = posix_spawnattr_t()
        posix_spawn_file_actions_init(&actions)
        posix_spawnattr_init(&attributes)
        defer {
            posix_spawn_file_actions_destroy(&actions)
            posix_spawnattr_destroy(&attributes)
        }
        posix_spawn_file_actions_adddup2(&actions, stdin, STDIN_FILENO)
        posix_spawn_file_actions_adddup2(&actions, STDERR_FILENO, STDOUT_FILENO)
        SpawnSupport.closeInheritedDescriptors(&actions)

        // The hook starts with a clean slate: no blocked signals, default handlers
        // (netprobe ignores SIGPIPE and catches others), its own process group.
        var empty = sigset_t()
        sigemptyset(&empty)
        var defaults = sigset_t()
        sigemptyset(&defaults)
        for signal in [SIGPIPE, SIGINT, SIGTERM, SIGHUP, SIGCHLD, SIGQUIT] { sigaddset(&defaults, signal) }
        posix_spawnattr_setsigmask(&attributes, &empty)
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setpgroup(&attributes, 0)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETPGROUP))

        var environment = ProcessInfo.processInfo.environment
        environment.merge(extra) { _, new in new }
        let cArguments = argv.map { strdup($0) } + [nil]
        let cEnvironment = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            cArguments.forEach { free($0) }
            cEnvironment.forEach { free($0) }
        }
        var pid: pid_t = 0
        // posix_spawnp: PROGRAM without a slash is looked up in $PATH, as a shell would.
        let result = posix_spawnp(&pid, argv[0], &actions, &attributes, cArguments, cEnvironment)
        guard result == 0 else { return .failure("\(argv[0]): \(String(cString: strerror(result)))") }
        return .success(pid)
    }
}

enum SpawnSupport {
    /// Descriptors without close-on-exec (libcurl's, libnl's) must not leak into hooks
    /// (posix_spawn_file_actions_addclosefrom_np, glibc 2.34 and later).
    static func closeInheritedDescriptors(_ actions: inout posix_spawn_file_actions_t) {
        _ = np_spawn_add_close_from(&actions, 3)
    }
}
