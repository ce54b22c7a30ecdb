import Foundation
import Testing

extension LabSuite {
    /// `watch` never goes deaf to the link state directory: the real binary, in a namespace,
    /// with networkd's directory moved into the test's own (NETPROBE_NETIF_STATE_DIR).
    @Suite("netprobe watch: a link state directory that comes and goes")
    struct LeaseDirectoryTests {
        /// `netprobe_checks_total` in the textfile; nil before the first write.
        static func checks(_ textfile: String) -> Int? {
            guard let text = try? String(contentsOfFile: textfile, encoding: .utf8) else { return nil }
            for line in text.split(separator: "\n") where line.hasPrefix("netprobe_checks_total ") {
                return Int(Double(line.split(separator: " ")[1]) ?? -1)
            }
            return nil
        }

        /// networkd's way: a new file renamed over the old one.
        static func writeState(_ directory: String, index: Int, dns: String) throws {
            try "ADMIN_STATE=configured\nOPER_STATE=routable\nDNS=\(dns)\n".write(toFile: "\(directory)/.\(index).tmp", atomically: false, encoding: .utf8)
            #expect(rename("\(directory)/.\(index).tmp", "\(directory)/\(index)") == 0)
        }

        /// With --interval 600 and no kernel change, only the link state can cause a check: new
        /// resolvers for the verdict's link (trigger lease) in a directory that did not exist
        /// when watch started, then in the same directory removed and made again.
        @Test func aDirectoryCreatedLaterAndOneRecreatedStillTriggerACheckWithinTwoSeconds() throws {
            let lab = try Lab()
            defer { lab.close() }
            let links = lab.directory + "/netif/links"
            let textDirectory = lab.directory + "/textfile"
            try FileManager.default.createDirectory(atPath: textDirectory, withIntermediateDirectories: true)
            let textfile = textDirectory + "/netprobe.prom"
            let shown = try Tool.run(Tool.ip, ["-n", lab.namespace, "-o", "link", "show", "v0"])
            let index = try #require(Int(shown.prefix { $0.isNumber }), "\(shown)")
            let watch = try Child(Tool.ip, ["netns", "exec", lab.namespace, "/usr/bin/env", "NETPROBE_NETIF_STATE_DIR=\(links)",
                                            NetprobeBinary.path, "watch", "--config", lab.config, "--json", "--hold", "0",
                                            "--interval", "600", "--textfile", textfile])
            defer { watch.stop() }
            try #require(FileEvents.until(textDirectory, timeout: 15 * Slowdown.factor) { Self.checks(textfile) == 1 },
                         "no first check: \(watch.stderr)")
            let bound = 2 * Slowdown.factor

            // networkd starts after watch: its directory appears, then the link's state.
            var written = Date()
            try FileManager.default.createDirectory(atPath: links, withIntermediateDirectories: true)
            try Self.writeState(links, index: index, dns: "198.51.100.53")
            #expect(FileEvents.until(textDirectory, timeout: bound) { Self.checks(textfile) == 2 },
                    "no check within \(bound) s of the state in a new directory: \(Self.checks(textfile) ?? -1) checks; \(watch.stderr)")
            let first = Date().timeIntervalSince(written)

            // Removed (the kernel ends its watch) and made again with other resolvers.
            try FileManager.default.removeItem(atPath: links)
            written = Date()
            try FileManager.default.createDirectory(atPath: links, withIntermediateDirectories: true)
            try Self.writeState(links, index: index, dns: "198.51.100.54")
            #expect(FileEvents.until(textDirectory, timeout: bound) { Self.checks(textfile) == 3 },
                    "no check within \(bound) s of the state in a re-created directory: \(Self.checks(textfile) ?? -1) checks; \(watch.stderr)")
            let second = Date().timeIntervalSince(written)
            print("lease checks \(String(format: "%.2f", first)) s and \(String(format: "%.2f", second)) s after the writes")

            watch.signal(SIGTERM)
            #expect(watch.waitForExit(timeout: 10) == 0)
            // Nothing changed state: the start and the stop are the whole log.
            let records = try Record.parseAll(watch.lines)
            #expect(records.map { $0.event ?? "" } == ["start", "stop"], "\(watch.lines)")
        }
    }
}
