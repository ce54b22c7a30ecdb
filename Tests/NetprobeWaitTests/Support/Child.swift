import Foundation

/// A child process whose stdout and stderr are collected line by line on background
/// threads. Every wait here is for an event (a line arrives, the process exits) with a
/// deadline: the readers and the termination handler signal a condition variable, so no
/// test ever sleeps on a guess.
final class Child {
    let process: Process
    private let state = ChildState()
    private let readersDone = DispatchGroup()

    init(_ executable: String, _ arguments: [String], stdin: FileHandle? = nil) throws {
        process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        let stdoutPipe = Pipe()
        let stderrPipe = Pipe()
        process.standardOutput = stdoutPipe
        process.standardError = stderrPipe
        process.standardInput = stdin ?? FileHandle.nullDevice
        process.terminationHandler = { [state] _ in state.change { $0.exited = true } }
        try process.run()
        Self.drain(stdoutPipe.fileHandleForReading, group: readersDone) { [state] text in
            state.change { $0.stdout.append(contentsOf: text) }
        }
        Self.drain(stderrPipe.fileHandleForReading, group: readersDone) { [state] text in
            state.change { $0.stderr += text.map { $0 + "\n" }.joined() }
        }
    }

    var pid: Int32 { process.processIdentifier }
    var lines: [String] { state.read { $0.stdout } }
    var stderr: String { state.read { $0.stderr } }
    var isRunning: Bool { process.isRunning }

    func signal(_ number: Int32) { kill(pid, number) }

    /// Waits (bounded) until `count` stdout lines arrived; returns what is there by then.
    @discardableResult
    func waitForLines(_ count: Int, timeout: Double) -> [String] {
        _ = state.wait(timeout: timeout) { $0.stdout.count >= count }
        return lines
    }

    /// Whether a stdout line beyond the first `count` arrives within `timeout` seconds.
    func receivesLine(after count: Int, within timeout: Double) -> Bool {
        state.wait(timeout: timeout) { $0.stdout.count > count }
    }

    /// Whether its stdout lines so far satisfy `condition` within `timeout` seconds.
    func waitForStdout(timeout: Double, _ condition: @escaping ([String]) -> Bool) -> Bool {
        state.wait(timeout: timeout) { condition($0.stdout) }
    }

    /// Whether what it wrote to stderr satisfies `condition` within `timeout` seconds.
    func waitForStderr(timeout: Double, _ condition: @escaping (String) -> Bool) -> Bool {
        state.wait(timeout: timeout) { condition($0.stderr) }
    }

    /// Whether it exits within `seconds` (it is left running if not).
    func exits(within seconds: Double) -> Bool {
        state.wait(timeout: seconds) { $0.exited }
    }

    /// Waits for the exit (bounded); nil if still running at the deadline (then it is killed).
    func waitForExit(timeout: Double) -> Int32? {
        guard exits(within: timeout) else {
            kill(pid, SIGKILL)
            process.waitUntilExit()
            return nil
        }
        process.waitUntilExit()
        _ = readersDone.wait(timeout: .now() + 5)  // the last lines are in
        return process.terminationStatus
    }

    /// Kills it if the test forgot to or failed early.
    func stop() {
        if process.isRunning {
            kill(pid, SIGKILL)
            process.waitUntilExit()
        }
    }

    private static func drain(_ handle: FileHandle, group: DispatchGroup, _ sink: @escaping @Sendable ([String]) -> Void) {
        group.enter()
        let thread = Thread {
            var pending = Data()
            while true {
                let chunk = handle.availableData
                if chunk.isEmpty { break }
                pending.append(chunk)
                var complete: [String] = []
                while let newline = pending.firstIndex(of: UInt8(ascii: "\n")) {
                    complete.append(String(decoding: pending[pending.startIndex..<newline], as: UTF8.self))
                    pending.removeSubrange(pending.startIndex...newline)
                }
                if !complete.isEmpty { sink(complete) }
            }
            if !pending.isEmpty { sink([String(decoding: pending, as: UTF8.self)]) }
            group.leave()
        }
        thread.start()
    }
}

/// What the reader threads and the termination handler have seen, behind one condition variable.
private final class ChildState: @unchecked Sendable {
    struct Seen {
        var stdout: [String] = []
        var stderr = ""
        var exited = false
    }

    private let condition = NSCondition()
    private var seen = Seen()  // guarded by `condition`

    func change(_ body: (inout Seen) -> Void) {
        condition.lock()
        body(&seen)
        condition.broadcast()
        condition.unlock()
    }

    func read<T>(_ body: (Seen) -> T) -> T {
        condition.lock()
        defer { condition.unlock() }
        return body(seen)
    }

    /// Waits until `holds` is true of what has been seen, or `timeout` seconds pass.
    func wait(timeout: Double, until holds: (Seen) -> Bool) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        condition.lock()
        defer { condition.unlock() }
        while !holds(seen) {
            if !condition.wait(until: deadline) { return holds(seen) }
        }
        return true
    }
}
