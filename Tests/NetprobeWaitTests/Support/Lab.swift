import Foundation
import Synchronization

/// System tools the lab is built with.
enum Tool {
    static let ip = find("ip")
    static let nft = find("nft")
    static let python = find("python3")
    static let bash = find("bash")
    static let unshare = find("unshare")
    static let systemdAnalyze = find("systemd-analyze")

    static func find(_ name: String) -> String {
        ["/usr/sbin", "/sbin", "/usr/bin", "/bin"].map { "\($0)/\(name)" }
            .first { FileManager.default.isExecutableFile(atPath: $0) } ?? "/usr/sbin/\(name)"
    }

    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    /// Runs to completion; throws with its output when it fails. Returns stdout + stderr.
    @discardableResult
    static func run(_ executable: String, _ arguments: [String], input: String? = nil) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        let stdin = Pipe()
        process.standardInput = input == nil ? FileHandle.nullDevice : stdin
        try process.run()
        if let input {
            stdin.fileHandleForWriting.write(Data(input.utf8))
            try stdin.fileHandleForWriting.close()
        }
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw Failure(description: "\(executable) \(arguments.joined(separator: " ")) exited \(process.terminationStatus): \(text)")
        }
        return text
    }
}

/// The binary under test: $NETPROBE_BIN, else `netprobe` next to the test bundle (same build directory).
enum NetprobeBinary {
    static var path: String {
        if let explicit = ProcessInfo.processInfo.environment["NETPROBE_BIN"], !explicit.isEmpty { return explicit }
        let bundle = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
        return URL(fileURLWithPath: bundle).deletingLastPathComponent().appendingPathComponent("netprobe").path
    }
}

/// How much slower than a plain debug build the binary under test runs: $SANITIZER_SLOWDOWN
/// (`make check-sanitized` sets it for its instrumented builds), else 1. Wall-clock bounds
/// scale by it; `make check` holds them unscaled.
enum Slowdown {
    static let factor = ProcessInfo.processInfo.environment["SANITIZER_SLOWDOWN"].flatMap(Double.init) ?? 1
}

/// A private network namespace for one test: loopback, a veth pair v0/v0p
/// (v0 198.51.100.10/24, the default route via 198.51.100.1 when asked), and two
/// probe servers on loopback, a good one and a portal (every path answers a 302).
/// The probe set points at 127.0.0.1:80, and one nft rule redirects port 80 to
/// one server or the other, so "portal on/off" is a single atomic switch with no
/// moment where nothing answers. Nothing here can reach a real network.
final class Lab {
    private static let counter = Atomic<Int>(0)
    static let serverScript = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../../support/probe_server.py").standardized.path

    let namespace: String
    let directory: String
    let config: String
    private var servers: [Child] = []
    private var goodPort = 0
    private var portalPort = 0

    /// `probeDelayMs` makes every probe answer that much later (a slow check).
    init(defaultRoute: Bool = true, portal: Bool = false, probeDelayMs: Int? = nil) throws {
        let number = Self.counter.add(1, ordering: .relaxed).newValue
        namespace = "np-wait-\(getpid())-\(number)"
        directory = FileManager.default.temporaryDirectory.appendingPathComponent(namespace).path
        config = directory + "/probes.json"
        try? FileManager.default.removeItem(atPath: directory)
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        _ = try? Tool.run(Tool.ip, ["netns", "del", namespace])  // left over by a crashed run with our pid
        try Tool.run(Tool.ip, ["netns", "add", namespace])
        do {
            // The namespace has a default route (into a veth pair that leads nowhere): without a
            // resolv.conf of its own, the DNS canary's query would be addressed to the machine's
            // resolver. Loopback refuses it at once; tests that need DNS write their own.
            try writeResolvConf("nameserver 127.0.0.1\n")
            try ipBatch([
                "link set lo up",
                "link add v0 type veth peer name v0p",
                "link set v0p up",
                "link set v0 up",
                "addr add 198.51.100.10/24 dev v0",
            ] + (defaultRoute ? ["route add default via 198.51.100.1 dev v0"] : []))
            goodPort = try startServer(name: "good", extra: [])
            portalPort = try startServer(name: "portal", extra: ["--all", "/redirect", "--portal-url", "http://portal.example/login?room=1"])
            try writeConfig(probeDelayMs: probeDelayMs)
            try setPortal(portal)
        } catch {
            close()
            throw error
        }
    }

    func ip(_ arguments: String...) throws {
        try Tool.run(Tool.ip, ["-n", namespace] + arguments)
    }

    /// Many `ip` commands in one process: fast enough to flap a link 100 times in a burst.
    func ipBatch(_ commands: [String]) throws {
        let file = directory + "/batch-\(UUID().uuidString)"
        try (commands.joined(separator: "\n") + "\n").write(toFile: file, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: file) }
        try Tool.run(Tool.ip, ["-n", namespace, "-batch", file])
    }

    /// Points the probe port at the portal server (on) or the good one (off), atomically.
    func setPortal(_ on: Bool) throws {
        let port = on ? portalPort : goodPort
        let ruleset = """
            table ip lab {
              chain out {
                type nat hook output priority -100; policy accept;
              }
            }
            flush chain ip lab out
            add rule ip lab out ip daddr 127.0.0.1 tcp dport 80 redirect to :\(port)
            """
        try Tool.run(Tool.ip, ["netns", "exec", namespace, Tool.nft, "-f", "-"], input: ruleset)
    }

    /// Starts `netprobe ARGS` inside the namespace (`ip netns exec` execs in place: the pid is netprobe's).
    func netprobe(_ arguments: [String]) throws -> Child {
        try Child(Tool.ip, ["netns", "exec", namespace, NetprobeBinary.path] + arguments)
    }

    /// Starts `netprobe ARGS` inside the namespace as the shipped units' sandbox shows it the
    /// machine: a /proc of its own with the processes only (`ProcSubset=pid`: no /proc/sys, no
    /// kernel boot id), in a private mount namespace; `environment` as the unit sets it.
    func netprobeProcSubsetPid(_ arguments: [String], environment: [String] = []) throws -> Child {
        let script = "mount -t proc -o subset=pid,hidepid=invisible proc /proc && exec env \"$@\""
        return try Child(Tool.ip, ["netns", "exec", namespace, Tool.unshare, "--mount", "--propagation", "private",
                                   Tool.bash, "-c", script, "sandbox"] + environment + [NetprobeBinary.path] + arguments)
    }

    /// Writes `text` to a file in the lab directory; returns its path.
    func file(_ name: String, _ text: String, executable: Bool = false) throws -> String {
        let path = directory + "/" + name
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        if executable { chmod(path, 0o755) }
        return path
    }

    func close() {
        for server in servers { server.stop() }
        servers = []
        // Whatever else still runs in the namespace (a daemon a test started, a netprobe it
        // forgot), by pid: deleting the name alone would leave them running in it.
        let pids = ((try? Tool.run(Tool.ip, ["netns", "pids", namespace])) ?? "")
            .split(whereSeparator: \.isWhitespace).compactMap { Int32($0) }
        for pid in pids where pid != getpid() { kill(pid, SIGKILL) }
        _ = try? Tool.run(Tool.ip, ["netns", "del", namespace])
        removeResolvConf()
        try? FileManager.default.removeItem(atPath: directory)
    }

    deinit { close() }

    private func startServer(name: String, extra: [String]) throws -> Int {
        let portfile = directory + "/\(name).port"
        // -v: one stderr line per request, so a test can wait for a check to be under way.
        let server = try Child(Tool.ip, ["netns", "exec", namespace, Tool.python, Self.serverScript, "-v",
                                         "--port", "0", "--portfile", portfile, "--lifetime", "900"] + extra)
        servers.append(server)
        var port: Int?
        guard FileEvents.until(directory, timeout: 10, {
            port = (try? String(contentsOfFile: portfile, encoding: .utf8)).flatMap { Int($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
            return port != nil
        }), let port else { throw Tool.Failure(description: "probe server \(name) did not start: \(server.stderr)") }
        return port
    }

    /// Waits (bounded) until a probe has reached the good server (it writes a line per request).
    func waitForProbeRequest(timeout: Double) -> Bool {
        servers.first?.waitForStderr(timeout: timeout) { $0.contains(" -> ") } ?? false
    }

    private func writeConfig(probeDelayMs: Int?) throws {
        let query = probeDelayMs.map { "?delay_ms=\($0)" } ?? ""
        _ = try file("probes.json", """
            {
              "version": 1, "timeout": 4, "probe_timeout": 3, "quorum": 2,
              "probes": [
                { "name": "apple", "operator": "apple", "url": "http://127.0.0.1/hotspot-detect.html\(query)",
                  "expect": { "status": [200], "body": { "contains": "Success" } } },
                { "name": "google", "operator": "google", "url": "http://127.0.0.1/generate_204\(query)",
                  "expect": { "status": [204], "body": { "exact": "" } } }
              ]
            }
            """)
    }
}
