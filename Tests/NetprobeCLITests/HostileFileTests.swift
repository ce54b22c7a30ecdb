import Foundation
import Testing

/// probes.json files that are not what they claim, through the real binary: each is refused
/// (exit 78, naming the file) at once, without being read whole or waited on.
@Suite(.timeLimit(.minutes(2)))
struct HostileFileTests {
    /// A sparse 1 GiB file used to be read whole (about 1 GB RSS, 4 s) before the cap applied.
    @Test func aSparseGigabyteIsRefusedBeforeReading() throws {
        let sandbox = try Sandbox()
        let file = sandbox.path("huge.json")
        #expect(FileManager.default.createFile(atPath: file, contents: nil))
        #expect(truncate(file, 1 << 30) == 0)
        let run = try sandbox.run(["config", "check", file], network: .loopbackOnly)
        #expect(run.status == 78, "\(run)")
        #expect(run.stderr.contains("\(file): $: expected at most 1048576 bytes; the file is larger"), "\(run)")
        #expect((run.elapsed ?? 99) < 2, "\(run.elapsed ?? -1) s")
    }

    /// Files under /proc say their size is 0; the read stops one byte past the cap.
    @Test func procPagemapIsReadOnlyUpToTheCap() throws {
        let sandbox = try Sandbox()
        let run = try sandbox.run(["config", "check", "/proc/self/pagemap"], network: .loopbackOnly)
        #expect(run.status == 78, "\(run)")
        #expect(run.stderr.contains("/proc/self/pagemap: $: expected at most 1048576 bytes; the file is larger"), "\(run)")
        #expect((run.elapsed ?? 99) < 2, "\(run.elapsed ?? -1) s")
    }

    /// Opening a FIFO for reading waits for a writer unless O_NONBLOCK; fstat then refuses it.
    @Test func aFIFOIsRefusedWithoutWaitingForAWriter() throws {
        let sandbox = try Sandbox()
        let fifo = sandbox.path("fifo.json")
        #expect(mkfifo(fifo, 0o600) == 0)
        for arguments in [["config", "check", fifo], ["--json", "--config", fifo]] {
            let run = try sandbox.run(arguments, network: .loopbackOnly, limit: 10)
            #expect(run.status == 78, "\(run)")
            #expect(run.stderr.contains("\(fifo): $: expected a regular file, found a device, pipe or socket"), "\(run)")
            #expect((run.elapsed ?? 99) < 2, "\(run.elapsed ?? -1) s")
        }
    }

    /// 600 levels of arrays ending in "[": JSONDecoder, which read probes.json before, died of SIGILL on it.
    @Test func deepNestingIsAnErrorNotACrash() throws {
        let sandbox = try Sandbox()
        let file = try sandbox.write("deep.json", String(repeating: "[", count: 600))
        let run = try sandbox.run(["config", "check", file], network: .loopbackOnly)
        #expect(run.status == 78, "\(run)")
        #expect(run.stderr.contains("not valid JSON: arrays and objects nested deeper than 64 levels (line 1, column 65)"), "\(run)")
    }

    @Test func aDuplicateKeyIsNamedByItsPath() throws {
        let sandbox = try Sandbox()
        let file = try sandbox.write("dup.json", """
            {"version": 1, "quorum": 1, "probes": [
              {"name": "a", "url": "http://127.0.0.1/", "expect": {"status": [204]}},
              {"name": "b", "name": "c", "url": "http://127.0.0.2/", "expect": {"status": [204]}}
            ]}
            """)
        let run = try sandbox.run(["config", "check", file], network: .loopbackOnly)
        #expect(run.status == 78, "\(run)")
        #expect(run.stderr.contains(#"\#(file): $.probes[1].name: not valid JSON: duplicate key "name""#), "\(run)")
        #expect(run.stderr.contains("(line 3, column 17)"), "\(run)")
    }

    /// 300,000 empty probes printed over 64 MB of messages; now 20 lines and a count.
    @Test func manyMistakesPrintTwentyLinesAndACount() throws {
        let sandbox = try Sandbox()
        let probes = Array(repeating: "{}", count: 300_000).joined(separator: ",")
        let file = try sandbox.write("many.json", #"{"version": 1, "quorum": 1, "probes": ["# + probes + "]}")
        let run = try sandbox.run(["config", "check", file], network: .loopbackOnly)
        #expect(run.status == 78, "\(run)")
        let lines = run.stderr.split(separator: "\n")
        #expect(lines.count <= 22, "\(lines.count) lines")
        #expect(lines.contains("... and 899981 more"), "\(run.stderr.suffix(300))")
    }
}
