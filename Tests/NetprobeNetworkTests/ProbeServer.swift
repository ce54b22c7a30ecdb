import Foundation
import NetprobeWire
import NetprobeVerdict
import NetprobeOutput
import NetprobeReport
import NetprobeSystem
import NetprobeNetwork
import NetprobeCheck
import NetprobeWatch

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Runs Tests/support/probe_server.py on 127.0.0.1 for the duration of a test class.
/// The server prints the port it bound on stdout once it listens, so there is never a race
/// for a port, and the wait is for that line (with a deadline), not a polling loop.
final class ProbeServer {
    let process: Process
    let port: Int
    private let exited = DispatchSemaphore(value: 0)

    static let script = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("support/probe_server.py")

    /// Starts a server; throws if it does not report its port within 10 s.
    /// - Parameter extra: additional command-line arguments (e.g. `--tls CERT KEY`).
    init(extra: [String] = []) throws {
        process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", Self.script.path, "--bind", "127.0.0.1", "--port", "0",
                             "--portfile", "-", "--lifetime", "300"] + extra
        let output = Pipe()
        process.standardOutput = output
        let exited = self.exited
        process.terminationHandler = { _ in exited.signal() }
        try process.run()
        guard let line = Self.firstLine(of: output.fileHandleForReading.fileDescriptor, within: 10_000),
              let port = Int(line) else {
            Self.terminate(process, exited)
            throw ServerStartError(script: Self.script.path)
        }
        self.port = port
    }

    func url(_ path: String, scheme: String = "http") -> String {
        "\(scheme)://127.0.0.1:\(port)\(path)"
    }

    /// SIGTERM by PID, then a bounded wait for the exit; SIGKILL if it does not go.
    func stop() {
        Self.terminate(process, exited)
    }

    /// The first line written to `fd`, waiting at most `milliseconds` for it (poll, not sleep).
    private static func firstLine(of fd: Int32, within milliseconds: Int32) -> String? {
        var bytes: [UInt8] = []
        let end = ContinuousClock.now + .milliseconds(Int64(milliseconds))
        while !bytes.contains(UInt8(ascii: "\n")) {
            let left = ContinuousClock.now.duration(to: end)
            guard left > .zero else { return nil }
            var ready = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            let waitMs = Int32(left.wholeMilliseconds) + 1
            guard poll(&ready, 1, waitMs) > 0 else { continue }
            var chunk = [UInt8](repeating: 0, count: 64)
            let count = read(fd, &chunk, chunk.count)
            guard count > 0 else { return nil }  // the server exited without a port
            bytes += chunk[0..<count]
        }
        return String(decoding: bytes.prefix { $0 != UInt8(ascii: "\n") }, as: UTF8.self)
    }

    private static func terminate(_ process: Process, _ exited: DispatchSemaphore) {
        guard process.isRunning else { return }
        kill(process.processIdentifier, SIGTERM)
        if exited.wait(timeout: .now() + 5) == .timedOut {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
    }
}

struct ServerStartError: Error, CustomStringConvertible {
    var script: String
    var description: String { "probe_server.py did not start or write its port file: \(script)" }
}

/// A loopback port that is bound but not listening: connecting to it is refused
/// (RST to the SYN), and holding it bound means no one else can take it meanwhile.
final class ClosedPort {
    let port: Int
    private let fd: Int32

    init() throws {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw POSIXError(.EBADF) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { sa in
                bind(fd, sa, length) == 0 && getsockname(fd, sa, &length) == 0
            }
        }
        guard bound else {
            close(fd)
            throw POSIXError(.EADDRINUSE)
        }
        self.fd = fd
        port = Int(UInt16(bigEndian: address.sin_port))
    }

    deinit { close(fd) }
}
