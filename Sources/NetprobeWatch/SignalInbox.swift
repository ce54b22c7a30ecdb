import Glibc
import Synchronization
import NetprobeWire
import NetprobeVerdict
import NetprobeOutput
import NetprobeSystem
import NetprobeNetwork
import NetprobeCheck

/// The write end of the self-pipe. The C signal handler can capture nothing, so it
/// finds the pipe here; an Atomic makes that a plain lock-free load, safe in a handler.
private let signalPipeWriteEnd = Atomic<Int32>(-1)

public struct SignalSetupError: Error, CustomStringConvertible {
    public var operation: String
    public var code: Int32
    public var description: String { "\(operation): \(String(cString: strerror(code)))" }
}

/// Turns asynchronous signals into readable bytes (the self-pipe trick), so an
/// event loop can wait for signals, netlink events and timers in one poll(2)
/// without races: a signal that lands just before poll leaves its byte in the
/// pipe and poll returns at once.
///
/// One per process (it owns the handlers of the signals it is given). Not Sendable:
/// the main thread reads it.
public final class SignalInbox {
    /// The read end: readable when signals arrived. Call `collect()` then.
    public let fileDescriptor: Int32
    /// Signals that arrived and have not been taken yet.
    public private(set) var pending: Set<Int32> = []

    public init(catching signals: [Int32]) throws(SignalSetupError) {
        guard let ends = Pipe.make(nonblockingRead: true, nonblockingWrite: true) else {
            throw SignalSetupError(operation: "pipe", code: errno)
        }
        let (exchanged, _) = signalPipeWriteEnd.compareExchange(expected: -1, desired: ends.write, ordering: .sequentiallyConsistent)
        precondition(exchanged, "only one SignalInbox per process")
        fileDescriptor = ends.read
        for signal in signals {
            var action = sigaction()
            action.__sigaction_handler.sa_handler = { number in
                // Async-signal-safe: one write(2) of one byte, errno preserved for the interrupted code.
                let saved = errno
                var byte = UInt8(truncatingIfNeeded: number)
                _ = write(signalPipeWriteEnd.load(ordering: .relaxed), &byte, 1)
                errno = saved
            }
            sigemptyset(&action.sa_mask)
            // SA_RESTART: the rest of the process (libcurl, file writes) should not see EINTR.
            // SA_NOCLDSTOP: a stopped hook is not an exited hook.
            action.sa_flags = SA_RESTART | SA_NOCLDSTOP
            guard sigaction(signal, &action, nil) == 0 else { throw SignalSetupError(operation: "sigaction(\(signal))", code: errno) }
        }
        // A blocked mask survives exec: a parent that spawned us from a thread blocking
        // signals (a dispatch worker, say) would leave SIGTERM pending forever.
        var set = sigset_t()
        sigemptyset(&set)
        for signal in signals { sigaddset(&set, signal) }
        pthread_sigmask(SIG_UNBLOCK, &set, nil)
    }

    /// A closed reader must show up as EPIPE on write, which the caller handles, not as a fatal SIGPIPE.
    public static func ignoreBrokenPipe() {
        signal(SIGPIPE, SIG_IGN)
    }

    /// Moves every byte waiting in the pipe into `pending`. Never blocks.
    public func collect() {
        var buffer = [UInt8](repeating: 0, count: 64)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(fileDescriptor, $0.baseAddress, $0.count) }
            if count > 0 {
                for byte in buffer[0..<count] { pending.insert(Int32(byte)) }
                continue
            }
            if count < 0 && errno == EINTR { continue }
            return  // EAGAIN: empty
        }
    }

    /// True (and forgets it) if `signal` arrived since it was last taken.
    public func take(_ signal: Int32) -> Bool {
        pending.remove(signal) != nil
    }

    /// Whether any of `signals` is waiting, without taking it.
    public func hasPending(_ signals: Set<Int32>) -> Bool {
        !pending.isDisjoint(with: signals)
    }
}

/// pipe(2) with both ends close-on-exec (pipe2 is not exported to Swift). The
/// process spawns hooks from one thread only, so there is no fork between the calls.
enum Pipe {
    static func make(nonblockingRead: Bool, nonblockingWrite: Bool) -> (read: Int32, write: Int32)? {
        var ends: [Int32] = [-1, -1]
        guard pipe(&ends) == 0 else { return nil }
        for (fd, nonblocking) in [(ends[0], nonblockingRead), (ends[1], nonblockingWrite)] {
            _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
            if nonblocking { _ = fcntl(fd, F_SETFL, O_NONBLOCK) }
        }
        return (ends[0], ends[1])
    }
}
