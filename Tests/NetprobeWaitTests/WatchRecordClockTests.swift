import Foundation
import Testing

extension LabSuite {
    /// The real binary's records carry the kernel's boot clocks of their moment, which a reader
    /// compares to tell a sleep or a stepped wall clock from time that passed.
    @Suite("netprobe watch: the boot clocks in its records")
    struct WatchRecordClockTests {
        @Test func recordsCarryTheBootAndBothBootClocks() throws {
            let lab = try Lab()
            defer { lab.close() }
            let watch = try lab.netprobe(["watch", "--config", lab.config, "--json", "--heartbeat", "1", "--interval", "600"])
            defer { watch.stop() }
            let lines = watch.waitForLines(3, timeout: 15 * Slowdown.factor)
            try #require(lines.count >= 3, "\(lines); \(watch.stderr)")
            let uptime = try #require(Double(try String(contentsOfFile: "/proc/uptime", encoding: .utf8).split(separator: " ")[0]))
            let boot = try String(contentsOfFile: "/proc/sys/kernel/random/boot_id", encoding: .utf8)
                .trimmingCharacters(in: .whitespacesAndNewlines)
            let records = try lines.prefix(3).map { try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]) }
            #expect(records.map { $0["event"] as? String } == ["start", "alive", "alive"])
            for record in records {
                #expect(record["boot_id"] as? String == boot, "\(record)")
                let boottime = try #require(record["boottime_seconds"] as? Double, "\(record)")
                let monotonic = try #require(record["monotonic_seconds"] as? Double, "\(record)")
                // CLOCK_BOOTTIME is /proc/uptime's clock: the record was made seconds before this read.
                #expect(boottime <= uptime + 0.01 && boottime > uptime - 30 * Slowdown.factor, "\(boottime) vs uptime \(uptime)")
                #expect(monotonic <= boottime + 0.01)
            }
            // Between two heartbeats a second apart both clocks moved as the wall clock did.
            let first = try #require(records[1]["monotonic_seconds"] as? Double), second = try #require(records[2]["monotonic_seconds"] as? Double)
            let stamps = try records[1...2].map { try WatchLogTruthTests.milliseconds(try #require($0["timestamp"] as? String)) }
            #expect(abs((second - first) * 1000 - Double(stamps[1] - stamps[0])) < 50, "\(first) \(second) \(stamps)")
            watch.signal(SIGTERM)
            #expect(watch.waitForExit(timeout: 10) == 0)
        }

        /// Under the units' ProcSubset=pid the kernel's file is hidden: the records still name
        /// the boot, from the id systemd hands down (`%b`, 32 hex digits), in the kernel's form.
        @Test func recordsNameTheBootUnderTheUnitsProcSubset() throws {
            let boot = try String(contentsOfFile: "/proc/sys/kernel/random/boot_id", encoding: .utf8)
                .trimmingCharacters(in: .whitespacesAndNewlines)
            for handedDown in [true, false] {
                let lab = try Lab()
                defer { lab.close() }
                let environment = handedDown ? ["NETPROBE_BOOT_ID=" + boot.replacingOccurrences(of: "-", with: "")] : []
                let watch = try lab.netprobeProcSubsetPid(["watch", "--config", lab.config, "--json", "--heartbeat", "1", "--interval", "600"],
                                                          environment: environment)
                defer { watch.stop() }
                let lines = watch.waitForLines(2, timeout: 15 * Slowdown.factor)
                try #require(lines.count >= 2, "\(lines); \(watch.stderr)")
                for line in lines.prefix(2) {
                    let record = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
                    // The sandbox is real: without the id handed down there is no boot proof.
                    if handedDown {
                        #expect(record["boot_id"] as? String == boot, "\(record)")
                    } else {
                        #expect(record["boot_id"] is NSNull, "\(record)")
                    }
                    #expect(record["monotonic_seconds"] is Double, "\(record)")
                }
                watch.signal(SIGTERM)
                #expect(watch.waitForExit(timeout: 10) == 0)
            }
        }
    }
}
