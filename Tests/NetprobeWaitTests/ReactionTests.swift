import Foundation
import Testing

extension LabSuite {
    /// `wait` reacts to what can change its answer at once: the route that opens the path, and
    /// the resolver configuration a DHCP client writes after it (which netlink never reports).
    @Suite("netprobe wait reacts at once")
    struct ReactionTests {
        /// Waits (bounded) until libcurl is mapped into the process: `wait` readied its transfer
        /// engine. Woken whenever a file in libcurl's directory is opened: the dynamic loader maps
        /// libcurl, then opens its dependencies there. (Closing is no event: a mapping keeps the
        /// file open until the process ends.)
        private func waitForEngine(_ pid: Int32, timeout: Double) -> Bool {
            FileEvents.until(libraryDirectory, events: FileEvents.opened, timeout: timeout) { enginePrepared(pid) }
        }

        /// Where Debian puts libcurl.so.4 and its dependencies: beside the libc this test process runs on.
        private var libraryDirectory: String {
            let libc = maps("self").split(separator: "\n").lazy.compactMap { $0.split(separator: " ").last }.first { $0.hasSuffix("/libc.so.6") }
            return libc.map { String($0.dropLast("/libc.so.6".count)) } ?? "/lib"
        }

        private func enginePrepared(_ pid: Int32) -> Bool {
            maps("\(pid)").contains("libcurl.so.4")
        }

        /// /proc/PID/maps, read to the end: procfs files report size 0, which whole-file readers take at its word.
        private func maps(_ pid: String) -> String {
            guard let maps = FileHandle(forReadingAtPath: "/proc/\(pid)/maps") else { return "" }
            defer { try? maps.close() }
            return String(decoding: maps.readDataToEndOfFile(), as: UTF8.self)
        }

        @Test func aDefaultRouteIsCheckedWithoutDebounce() throws {
            let lab = try Lab(defaultRoute: false)
            defer { lab.close() }
            let wait = try lab.netprobe(["wait", "--config", lab.config, "--timeout", "30", "--json"])
            defer { wait.stop() }
            #expect(waitForEngine(wait.pid, timeout: 10), "wait never loaded libcurl while offline")
            let added = Date()
            try lab.ip("route", "add", "default", "via", "198.51.100.1", "dev", "v0")
            #expect(wait.waitForExit(timeout: 15) == 0)
            let reaction = Date().timeIntervalSince(added)
            print("wait reaction, prepared engine, from `ip route add` to exit: \(String(format: "%.0f", reaction * 1000)) ms")
            // The route event woke it, not the back-off timer (first re-check 1 s after the offline
            // answer). That no debounce delays it is tested in-process (WaitLoopTests: the gate
            // change is decisive); how fast it is, bench/reaction.py measures, not this test.
            #expect(reaction < 1.0 * Slowdown.factor)
        }

        @Test func aResolvConfWrittenAfterTheRouteIsPickedUpAtOnce() throws {
            let lab = try Lab(defaultRoute: false)
            defer {
                lab.close()
                lab.removeResolvConf()
            }
            let (wrong, wrongLog) = try lab.dnsServer(on: "127.0.0.2", answering: false)
            defer { kill(wrong, SIGKILL) }
            let (right, _) = try lab.dnsServer(on: "127.0.0.1", answering: true)
            defer { kill(right, SIGKILL) }
            try lab.writeResolvConf("nameserver 127.0.0.2\n")
            let wait = try lab.netprobe(["wait", "--config", try lab.configByName(), "--timeout", "30", "--json"])
            defer { wait.stop() }
            #expect(waitForEngine(wait.pid, timeout: 10))
            try lab.ip("route", "add", "default", "via", "198.51.100.1", "dev", "v0")
            // The check the route triggered asked the server resolv.conf named, and learnt nothing.
            #expect(FileEvents.until(lab.directory, timeout: 5) { ((try? String(contentsOfFile: wrongLog, encoding: .utf8)) ?? "").contains("probe.test") })
            #expect(wait.isRunning)
            let written = Date()
            try lab.writeResolvConf("nameserver 127.0.0.1\n")
            #expect(wait.waitForExit(timeout: 15) == 0)
            let reaction = Date().timeIntervalSince(written)
            print("wait reaction, from writing resolv.conf to exit: \(String(format: "%.0f", reaction * 1000)) ms")
            let report = try Record.parse(try #require(wait.lines.last))
            #expect(report.verdict == "online")
            // The backoff re-check after the failed check would come 1 s after it.
            #expect(reaction < 0.5)
        }
    }
}
