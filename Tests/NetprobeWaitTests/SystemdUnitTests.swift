import Foundation
import Testing

extension LabSuite {
    /// The shipped units pass `systemd-analyze verify` (package systemd).
    @Suite("systemd units")
    struct SystemdUnitTests {
        static let unitDirectory = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../../systemd").standardized.path

        /// verify insists that ExecStart= exists, and netprobe is not installed where the unit says:
        /// check a copy that points at the binary under test. --man=no: the man page is not installed either.
        private func verify(_ name: String) throws -> String {
            let text = try String(contentsOfFile: "\(Self.unitDirectory)/\(name)", encoding: .utf8)
            #expect(text.contains("ExecStart=/usr/local/bin/netprobe "))
            let directory = FileManager.default.temporaryDirectory.appendingPathComponent("np-units-\(getpid())-\(UUID().uuidString)").path
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(atPath: directory) }
            let copy = "\(directory)/\(name)"
            try text.replacingOccurrences(of: "/usr/local/bin/netprobe", with: NetprobeBinary.path)
                .write(toFile: copy, atomically: true, encoding: .utf8)
            try Tool.run(Tool.systemdAnalyze, ["verify", "--man=no", copy])
            return text
        }

        private func directives(_ text: String) -> [String] {
            text.split(separator: "\n").map(String.init).filter { !$0.hasPrefix("#") && $0.contains("=") }
        }

        @Test func waitOnlineUnitIsOrderedBeforeNetworkOnline() throws {
            let lines = directives(try verify("netprobe-wait-online.service"))
            for expected in ["Type=oneshot", "RemainAfterExit=yes", "Before=network-online.target",
                             "WantedBy=network-online.target", "ExecStart=/usr/local/bin/netprobe wait --timeout 60 -q"] {
                #expect(lines.contains(expected), "missing \(expected)")
            }
        }

        @Test func watchUnitRunsWatchWithJSONAndReloadsOnHUP() throws {
            let lines = directives(try verify("netprobe-watch.service"))
            for expected in ["ExecStart=/usr/local/bin/netprobe watch --format json", "ExecReload=/bin/kill -HUP $MAINPID",
                             "WantedBy=multi-user.target",
                             // ProcSubset=pid hides the kernel's boot id: the service manager hands it down.
                             "ProcSubset=pid", "Environment=NETPROBE_BOOT_ID=%b",
                             // What each network taught, kept across restarts (watch reads $STATE_DIRECTORY).
                             "StateDirectory=netprobe-watch", "StateDirectoryMode=0700"] {
                #expect(lines.contains(expected), "missing \(expected)")
            }
        }

        /// The textfile is kept by a long-running watch, not a shell loop of checks.
        @Test func textfileUnitRunsWatchWithATextfileInItsRuntimeDirectory() throws {
            let text = try verify("netprobe-textfile.service")
            let lines = directives(text)
            let exec = try #require(lines.first { $0.hasPrefix("ExecStart=") })
            #expect(exec.hasPrefix("ExecStart=/usr/local/bin/netprobe watch ") && exec.contains("--textfile /run/netprobe/netprobe.prom"))
            #expect(!exec.contains("/bin/sh") && !exec.contains("while"))
            for expected in ["RuntimeDirectory=netprobe", "RuntimeDirectoryMode=0755", "DynamicUser=yes", "ProtectSystem=strict",
                             "StateDirectory=netprobe-textfile", "StateDirectoryMode=0700", "WantedBy=multi-user.target"] {
                #expect(lines.contains(expected), "missing \(expected)")
            }
        }

        @Test func verifyRejectsABrokenUnit() throws {
            // The check has teeth: a unit whose program is missing fails.
            let directory = FileManager.default.temporaryDirectory.appendingPathComponent("np-units-\(getpid())-bad").path
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(atPath: directory) }
            try "[Service]\nExecStart=/nonexistent/netprobe watch\n".write(toFile: "\(directory)/broken.service", atomically: true, encoding: .utf8)
            #expect(throws: Tool.Failure.self) { try Tool.run(Tool.systemdAnalyze, ["verify", "--man=no", "\(directory)/broken.service"]) }
        }
    }
}
