import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Runs Tests/support/probe_server.py on 127.0.0.1 for the duration of a test class.
/// The server writes the port it bound to a file, so there is never a race for a port.
final class ProbeServer {
    let process: Process
    let port: Int
    private let directory: URL

    static let script = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("support/probe_server.py")

    /// - Parameter extra: additional command-line arguments (e.g. `--tls CERT KEY`).
    init(extra: [String] = []) throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("netprobe-http-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let portfile = directory.appendingPathComponent("port")
        process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", Self.script.path, "--bind", "127.0.0.1", "--port", "0",
                             "--portfile", portfile.path, "--lifetime", "300"] + extra
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        // Bounded wait for the port file (written atomically once the socket listens).
        for _ in 0..<200 {
            if let text = try? String(contentsOf: portfile, encoding: .utf8),
               let port = Int(text.split(separator: "\n").first ?? "") {
                self.port = port
                return
            }
            guard process.isRunning else { break }
            usleep(50_000)
        }
        Self.terminate(process)
        try? FileManager.default.removeItem(at: directory)
        throw ServerStartError(script: Self.script.path)
    }

    func url(_ path: String, scheme: String = "http") -> String {
        "\(scheme)://127.0.0.1:\(port)\(path)"
    }

    /// SIGTERM by PID, then a bounded wait; SIGKILL if it does not go.
    func stop() {
        Self.terminate(process)
        try? FileManager.default.removeItem(at: directory)
    }

    private static func terminate(_ process: Process) {
        guard process.isRunning else { return }
        kill(process.processIdentifier, SIGTERM)
        for _ in 0..<100 where process.isRunning { usleep(50_000) }
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
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
