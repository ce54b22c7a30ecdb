import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Runs lab/servers/forward_proxy.py on 127.0.0.1 for one test: the explicit proxy the
/// probes go through. It prints "ready PORT" once it listens; reading that line blocks
/// until it comes (or the script dies and the pipe closes), so nothing polls or sleeps.
final class ForwardProxy {
    enum Mode: String {
        case normal, auth, credentials, portal
    }

    static let script = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("lab/servers/forward_proxy.py")
    static let loginURL = "http://login.portal.test/login?venue=lab"

    let process: Process
    let port: Int
    private let logFile: URL

    init(mode: Mode = .normal) throws {
        logFile = FileManager.default.temporaryDirectory.appendingPathComponent("netprobe-proxy-\(UUID().uuidString).log")
        _ = FileManager.default.createFile(atPath: logFile.path, contents: nil)
        process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", Self.script.path, "--bind", "127.0.0.1", "--port", "0", "--mode", mode.rawValue,
                             "--credentials", "user:secret", "--login-url", Self.loginURL, "--lifetime", "300"]
        let stdout = Pipe()
        process.standardOutput = stdout
        process.standardError = try FileHandle(forWritingTo: logFile)
        try process.run()
        var line = Data()
        while !line.contains(UInt8(ascii: "\n")) {
            let chunk = stdout.fileHandleForReading.availableData
            if chunk.isEmpty { break }  // EOF: the script exited
            line.append(chunk)
        }
        let words = String(decoding: line, as: UTF8.self).split(whereSeparator: \.isWhitespace)
        guard words.count >= 2, words[0] == "ready", let port = Int(words[1]) else {
            Self.terminate(process)
            throw ServerStartError(script: Self.script.path)
        }
        self.port = port
    }

    deinit { stop() }

    var url: String { "http://127.0.0.1:\(port)" }

    /// What the proxy logged so far (each request on arrival, before it relays anything).
    var log: String { (try? String(contentsOf: logFile, encoding: .utf8)) ?? "" }

    /// SIGTERM by PID, then a bounded wait; SIGKILL if it does not go.
    func stop() {
        Self.terminate(process)
        try? FileManager.default.removeItem(at: logFile)
    }

    private static func terminate(_ process: Process) {
        guard process.isRunning else { return }
        kill(process.processIdentifier, SIGTERM)
        process.waitUntilExit()
    }
}
