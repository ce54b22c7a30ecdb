import Foundation

/// Runs the system tools the tests configure namespaces with (`ip`, `sh`).
enum Command {
    struct Failure: Error, CustomStringConvertible {
        var command: [String]
        var status: Int32
        var output: String
        var description: String { "\(command.joined(separator: " ")) exited \(status): \(output)" }
    }

    static let ipPath = ["/usr/sbin/ip", "/sbin/ip", "/usr/bin/ip", "/bin/ip"]
        .first { FileManager.default.isExecutableFile(atPath: $0) } ?? "/usr/sbin/ip"

    /// Runs to completion; throws with the tool's stderr when it fails.
    static func run(_ executable: String, _ arguments: [String]) throws {
        let process = try start(executable, arguments)
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            let pipe = process.standardError as? Pipe
            let output = pipe.map { String(decoding: $0.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self) }
            throw Failure(command: [executable] + arguments, status: process.terminationStatus, output: output ?? "")
        }
    }

    /// Starts without waiting; the caller must `waitUntilExit()`.
    static func start(_ executable: String, _ arguments: [String]) throws -> Process {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.standardOutput = FileHandle.nullDevice
        process.standardError = Pipe()
        try process.run()
        return process
    }

    static func ip(_ arguments: String...) throws { try run(ipPath, arguments) }
}
