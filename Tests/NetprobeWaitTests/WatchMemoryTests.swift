import Foundation
import Testing

extension LabSuite {
    /// What watch remembers of a network, kept in its state directory across a restart.
    @Suite("netprobe watch --state-directory")
    struct WatchMemoryTests {
        private func text(_ path: String) -> String {
            (try? String(contentsOfFile: path, encoding: .utf8)) ?? ""
        }

        private func counter(_ name: String, in text: String) -> Int? {
            text.split(separator: "\n").first { $0.hasPrefix(name + " ") }.flatMap { Int($0.split(separator: " ")[1]) }
        }

        /// A garbage file is said on stderr and replaced; the network proven open is kept with
        /// mode 0600; a restarted watch (given the directory by $STATE_DIRECTORY, as systemd
        /// does) re-checks lean from its second check, where a fresh one needs two full checks.
        @Test func aRestartedWatchRemembersANetworkProvenOpen() throws {
            let lab = try Lab()
            defer { lab.close() }
            // The network is named by its domain (probes to loopback resolve no gateway).
            try lab.writeResolvConf("nameserver 127.0.0.1\nsearch home.example\n")
            let state = lab.directory + "/state"
            let metrics = lab.directory + "/metrics"
            for directory in [state, metrics] {
                try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
            }
            let file = state + "/networks.json"
            try "{\"version\":1,\"networks\":[{\"id\":".write(toFile: file, atomically: true, encoding: .utf8)
            let textfile = metrics + "/netprobe.prom"
            let arguments = ["watch", "--config", lab.config, "--json", "--hold", "0", "--interval", "0.1", "--textfile", textfile]

            let first = try lab.netprobe(arguments + ["--state-directory", state])
            defer { first.stop() }
            #expect(first.waitForStderr(timeout: 10) { $0.contains("networks.json") && $0.contains("ignored") }, "\(first.stderr)")
            #expect(FileEvents.until(metrics, timeout: 10) { (counter("netprobe_lean_checks_total", in: text(textfile)) ?? 0) >= 2 })
            first.signal(SIGTERM)
            #expect(first.waitForExit(timeout: 5) == 0)
            // Two full checks proved it open before the first lean one.
            let firstRun = text(textfile)
            let checks = try #require(counter("netprobe_checks_total", in: firstRun))
            #expect(counter("netprobe_lean_checks_total", in: firstRun) == checks - 2)

            let saved = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: file))) as? [String: Any]
            let networks = try #require(saved?["networks"] as? [[String: Any]])
            #expect(networks.count == 1 && networks.first?["verdict"] as? String == "online")
            #expect((networks.first?["open_streak"] as? Int ?? 0) >= 2)
            let attributes = try FileManager.default.attributesOfItem(atPath: file)
            #expect((attributes[.posixPermissions] as? Int) == 0o600)
            #expect(try FileManager.default.contentsOfDirectory(atPath: state) == ["networks.json"])

            try FileManager.default.removeItem(atPath: textfile)
            let second = try lab.netprobeProcSubsetPid(arguments, environment: ["STATE_DIRECTORY=\(state)"])
            defer { second.stop() }
            #expect(FileEvents.until(metrics, timeout: 10) { (counter("netprobe_checks_total", in: text(textfile)) ?? 0) >= 3 })
            second.signal(SIGTERM)
            #expect(second.waitForExit(timeout: 5) == 0)
            let secondRun = text(textfile)
            let again = try #require(counter("netprobe_checks_total", in: secondRun))
            // Only the start was full.
            #expect(counter("netprobe_lean_checks_total", in: secondRun) == again - 1, "\(secondRun)")
            #expect(!second.stderr.contains("networks.json"), "\(second.stderr)")
        }

        @Test func aStateDirectoryThatIsNoDirectoryIsAnError() throws {
            let lab = try Lab()
            defer { lab.close() }
            let notADirectory = try lab.file("plain", "x")
            let watch = try lab.netprobe(["watch", "--config", lab.config, "--state-directory", notADirectory])
            #expect(watch.waitForExit(timeout: 5) == 64)
            #expect(watch.stderr.contains("--state-directory") && watch.stderr.contains("is not a directory"), "\(watch.stderr)")
        }
    }
}
