import Foundation
import Synchronization

/// The network a command sees: always a private namespace made by
/// Tests/support/netns_run.sh, so nothing can reach a real network.
enum Network: String, Sendable, CustomStringConvertible {
    /// Only loopback, up.
    case loopbackOnly = "lo"
    /// A veth with carrier, 198.51.100.2/24 and a default route: the path gate passes.
    case online
    /// The veth with its address, but no default route.
    case noRoute = "noroute"
    /// The veth and a default route, but no carrier (its peer is down).
    case noCarrier = "nocarrier"
    /// The veth with carrier and a default route out of it, but no address.
    case noAddress = "noaddress"

    var description: String { rawValue }
}

/// What one run of netprobe did.
struct Run: CustomStringConvertible {
    var arguments: [String]
    var status: Int32
    var stdout: String
    var stderr: String
    /// Written by netns_run.sh: lo_tx_before, lo_tx_after, elapsed_ms.
    var stats: [String: Int]

    /// Wall time of netprobe alone (not the namespace and server set-up), in seconds.
    var elapsed: Double? { stats["elapsed_ms"].map { Double($0) / 1000 } }

    /// Packets sent on lo inside the namespace while netprobe ran.
    var loopbackPacketsSent: Int? {
        guard let before = stats["lo_tx_before"], let after = stats["lo_tx_after"] else { return nil }
        return after - before
    }

    func report() throws -> JSONReport { try JSONReport(stdout) }

    var description: String {
        "netprobe \(arguments.joined(separator: " ")) -> exit \(status)\nstdout: \(stdout)\nstderr: \(stderr)"
    }
}

struct HarnessError: Error, CustomStringConvertible {
    var description: String
}

/// A private temporary directory for one test: probe sets, certificates, server
/// logs. Runs netprobe inside a fresh network namespace of its own, so tests can
/// run in parallel. Removed when the sandbox goes away.
final class Sandbox {
    let directory: URL
    private var runs = 0

    private static let counter = Atomic<Int>(0)

    /// Tests/support, next to this target's sources.
    static let supportDirectory = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("support")

    init() throws {
        let number = Self.counter.add(1, ordering: .relaxed).newValue
        directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("netprobe-cli-\(getpid())-\(number)-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(at: directory) }

    func path(_ name: String) -> String { directory.appendingPathComponent(name).path }

    /// Writes `contents` to a file in the sandbox; returns its path.
    @discardableResult
    func write(_ name: String, _ contents: String) throws -> String {
        try contents.write(toFile: path(name), atomically: true, encoding: .utf8)
        return path(name)
    }

    /// Writes the probe set as a probes.json; returns its path.
    func write(_ probes: ProbeSet, as name: String = "probes.json") throws -> String {
        try write(name, probes.json())
    }

    /// Runs the real netprobe binary with `arguments` inside a fresh namespace.
    /// - Parameters:
    ///   - servers: probe_server.py argument strings, each one server on 127.0.0.1 in the namespace.
    ///   - environment: added to (or replacing) the test's environment; NETPROBE_CONFIG and
    ///     NO_COLOR are removed first, so only what a test sets counts.
    ///   - tty: run on a pseudo-terminal.
    ///   - wrapper: a command that execs netprobe (given as its trailing arguments) inside the namespace.
    ///   - hosts: names given 127.0.0.1 inside the namespace (its own /etc/hosts).
    func run(_ arguments: [String], network: Network = .online, servers: [String] = [],
             environment: [String: String] = [:], tty: Bool = false, limit: Int = 60,
             wrapper prefix: [String] = [], hosts: [String] = []) throws -> Run {
        let binary = try NetprobeBinary.path()
        runs += 1
        let out = path("run\(runs).stdout"), err = path("run\(runs).stderr"), stats = path("stats")
        try? FileManager.default.removeItem(atPath: stats)
        guard FileManager.default.createFile(atPath: out, contents: nil),
              FileManager.default.createFile(atPath: err, contents: nil) else {
            throw HarnessError(description: "cannot create output files in \(directory.path)")
        }

        var wrapper = [Self.supportDirectory.appendingPathComponent("netns_run.sh").path,
                       "--dir", directory.path, "--net", network.rawValue, "--limit", String(limit)]
        for server in servers { wrapper += ["--server", server] }
        if tty { wrapper.append("--tty") }
        if !hosts.isEmpty {
            let file = path("hosts")
            let text = "127.0.0.1 localhost\n" + hosts.map { "127.0.0.1 \($0)\n" }.joined()
            guard FileManager.default.createFile(atPath: file, contents: Data(text.utf8)) else {
                throw HarnessError(description: "cannot write \(file)")
            }
            wrapper += ["--hosts", file]
        }

        var env = ProcessInfo.processInfo.environment
        env["NETPROBE_CONFIG"] = nil
        env["NO_COLOR"] = nil
        env.merge(environment) { _, new in new }

        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = wrapper + ["--"] + prefix + [binary] + arguments
        process.environment = env
        process.standardInput = FileHandle.nullDevice
        let outHandle = try FileHandle(forWritingTo: URL(fileURLWithPath: out))
        let errHandle = try FileHandle(forWritingTo: URL(fileURLWithPath: err))
        defer {
            try? outHandle.close()
            try? errHandle.close()
        }
        process.standardOutput = outHandle
        process.standardError = errHandle
        try process.run()
        process.waitUntilExit()

        let run = Run(arguments: arguments, status: process.terminationStatus,
                      stdout: Self.text(of: out), stderr: Self.text(of: err),
                      stats: Self.parseStats(path: stats))
        // 125: the namespace or a server could not be set up; that is no verdict on netprobe.
        if run.status == 125 && run.stderr.contains("netns_run:") {
            throw HarnessError(description: "test set-up failed: \(run.stderr)")
        }
        return run
    }

    /// The log of the n-th server (1-based) of the last run: with `-v` it lists every request.
    func serverLog(_ number: Int = 1) -> String {
        (try? String(contentsOfFile: path("server\(number).log"), encoding: .utf8)) ?? ""
    }

    /// Decoded leniently: invalid UTF-8 from netprobe shows up as U+FFFD, not as an empty string.
    private static func text(of path: String) -> String {
        FileManager.default.contents(atPath: path).map { String(decoding: $0, as: UTF8.self) } ?? ""
    }

    private static func parseStats(path: String) -> [String: Int] {
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else { return [:] }
        var stats: [String: Int] = [:]
        for line in text.split(separator: "\n") {
            let parts = line.split(separator: "=", maxSplits: 1)
            if parts.count == 2, let value = Int(parts[1]) { stats[String(parts[0])] = value }
        }
        return stats
    }
}

/// How much slower than a plain debug build the binary under test runs: $SANITIZER_SLOWDOWN
/// (`make check-sanitized` sets it for its instrumented builds), else 1. Wall-clock bounds
/// scale by it; `make check` holds them unscaled.
enum Slowdown {
    static let factor = ProcessInfo.processInfo.environment["SANITIZER_SLOWDOWN"].flatMap(Double.init) ?? 1
}

/// The netprobe executable under test: $NETPROBE_BIN, else `netprobe` in the build
/// directory this test bundle was built into (so `swift test --scratch-path X` tests X's binary).
enum NetprobeBinary {
    static func path() throws -> String {
        let candidates = self.candidates()
        for candidate in candidates where isExecutableFile(candidate) {
            return candidate
        }
        throw HarnessError(description: "netprobe binary not found (tried \(candidates.joined(separator: ", "))); "
            + "build it with `swift build --scratch-path <dir>` or set NETPROBE_BIN")
    }

    /// A regular file (symlinks followed) with the execute bit: a directory named netprobe is not it.
    static func isExecutableFile(_ path: String) -> Bool {
        var info = stat()
        return stat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFREG && access(path, X_OK) == 0
    }

    static func candidates() -> [String] {
        if let override = ProcessInfo.processInfo.environment["NETPROBE_BIN"], !override.isEmpty {
            return [override]
        }
        var directories: [URL] = []
        if let executable = Bundle.main.executableURL { directories.append(executable.deletingLastPathComponent()) }
        if let first = CommandLine.arguments.first {
            let url = URL(fileURLWithPath: first, relativeTo: URL(fileURLWithPath: FileManager.default.currentDirectoryPath))
            directories.append(url.standardizedFileURL.deletingLastPathComponent())
        }
        // The bundle may sit inside an .xctest directory (…/debug/X.xctest/Contents/…): walk up to debug/.
        var result: [String] = []
        for directory in directories {
            var current = directory
            for _ in 0..<4 {
                let candidate = current.appendingPathComponent("netprobe").path
                if !result.contains(candidate) { result.append(candidate) }
                current = current.deletingLastPathComponent()
            }
        }
        return result
    }
}
