import Foundation
import Synchronization

/// A child process whose stdout and stderr are collected line by line on
/// background threads, so tests can wait for "the next record" with a deadline.
final class Child {
    let process: Process
    private let collected = Collected()
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
        try process.run()
        Self.drain(stdoutPipe.fileHandleForReading, group: readersDone) { [collected] text in
            collected.stdout.withLock { lines in lines.append(contentsOf: text) }
        }
        Self.drain(stderrPipe.fileHandleForReading, group: readersDone) { [collected] text in
            collected.stderr.withLock { $0 += text.map { $0 + "\n" }.joined() }
        }
    }

    var pid: Int32 { process.processIdentifier }
    var lines: [String] { collected.stdout.withLock { $0 } }
    var stderr: String { collected.stderr.withLock { $0 } }
    var isRunning: Bool { process.isRunning }

    func signal(_ number: Int32) { kill(pid, number) }

    /// Waits (bounded) until `count` stdout lines arrived; returns what is there by then.
    @discardableResult
    func waitForLines(_ count: Int, timeout: Double) -> [String] {
        _ = Poll.until(timeout: timeout) { lines.count >= count }
        return lines
    }

    /// Waits for the exit (bounded); nil if still running at the deadline (then it is killed).
    func waitForExit(timeout: Double) -> Int32? {
        guard Poll.until(timeout: timeout, { !process.isRunning }) else {
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

private final class Collected: Sendable {
    let stdout = Mutex<[String]>([])
    let stderr = Mutex<String>("")
}

enum Poll {
    /// Re-evaluates `condition` every 20 ms until it holds or `timeout` seconds pass (test-side only).
    static func until(timeout: Double, _ condition: () -> Bool) -> Bool {
        let end = Date().addingTimeInterval(timeout)
        while Date() < end {
            if condition() { return true }
            usleep(20_000)
        }
        return condition()
    }
}
