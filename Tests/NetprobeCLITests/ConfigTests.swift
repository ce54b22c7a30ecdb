import Foundation
import Testing

/// Configuration lookup and validation through the real binary: a file that is
/// given but missing or invalid is exit 78 naming the file and the JSON path,
/// never a silent fallback; `config check` lists every error.
@Suite(.timeLimit(.minutes(2)))
struct ConfigTests {
    /// Three problems at once: an unknown key, an ftp URL, a duplicate name.
    static let brokenProbes = """
        {
          "version": 1,
          "quorum": 2,
          "probes": [
            { "name": "a", "url": "http://127.0.0.1:8080/apple", "expect": { "status": [200] }, "colour": "red" },
            { "name": "b", "url": "ftp://127.0.0.1/file", "expect": { "status": [204] } },
            { "name": "a", "url": "http://127.0.0.2:8080/generate_204", "expect": { "status": [204] } }
          ]
        }
        """

    static let brokenPaths = ["$.probes[0].colour", "$.probes[1].url", "$.probes[2].name"]

    @Test func missingConfigFileIsExit78NamingThePath() throws {
        let sandbox = try Sandbox()
        let missing = sandbox.path("no-such-dir/probes.json")
        let run = try sandbox.run(["--json", "--config", missing])
        #expect(run.status == 78, "\(run)")
        #expect(run.stderr.contains(missing), "\(run)")
        #expect(run.stdout.isEmpty, "\(run)")
    }

    @Test func invalidConfigIsExit78NamingFileAndJSONPath() throws {
        let sandbox = try Sandbox()
        let file = try sandbox.write("broken.json", Self.brokenProbes)
        let run = try sandbox.run(["--config", file], servers: [ProbeSet.httpServer])
        #expect(run.status == 78, "\(run)")
        #expect(run.stdout.isEmpty, "\(run)")
        for path in Self.brokenPaths {
            #expect(run.stderr.contains("\(file): \(path)"), "\(path) missing in: \(run.stderr)")
        }
        #expect(!sandbox.serverLog().contains("->"), "probed despite a bad config: \(sandbox.serverLog())")
    }

    @Test func notJSONIsExit78() throws {
        let sandbox = try Sandbox()
        let file = try sandbox.write("garbage.json", "{ \"version\": 1, \"probes\": [ ")
        let run = try sandbox.run(["--config", file])
        #expect(run.status == 78, "\(run)")
        #expect(run.stderr.contains(file), "\(run)")
        #expect(run.stderr.contains("$"), "\(run)")
    }

    @Test func configCheckAcceptsAValidFile() throws {
        let sandbox = try Sandbox()
        let file = try sandbox.write(ProbeSet.healthy(3))
        let run = try sandbox.run(["config", "check", file], network: .loopbackOnly)
        #expect(run.status == 0, "\(run)")
        #expect(run.stdout.contains(file), "\(run)")
        #expect(run.stdout.contains("ok"), "\(run)")
        #expect(run.stderr.isEmpty, "\(run)")
    }

    /// The name of a valid file is echoed on stdout: through the terminal escaper like every message.
    @Test func configCheckEscapesTheNameOfAValidFile() throws {
        let sandbox = try Sandbox()
        let file = try sandbox.write(ProbeSet.healthy(3), as: "ok\u{1B}]0;title\u{07}\u{9B}1m.json")
        let run = try sandbox.run(["config", "check", file], network: .loopbackOnly)
        #expect(run.status == 0, "\(run)")
        #expect(run.stdout.contains("ok\\x1b]0;title\\x07\\u{009b}1m.json: ok:"), "\(run)")
        #expect(!run.stdout.unicodeScalars.contains { $0.value < 0x20 && $0 != "\n" || (0x7F...0x9F).contains($0.value) }, "\(run)")
    }

    @Test func configCheckListsEveryError() throws {
        let sandbox = try Sandbox()
        let file = try sandbox.write("broken.json", Self.brokenProbes)
        let run = try sandbox.run(["config", "check", file], network: .loopbackOnly)
        #expect(run.status == 78, "\(run)")
        let lines = run.stderr.split(separator: "\n").map(String.init)
        for path in Self.brokenPaths {
            let line = lines.first { $0.contains("\(file): \(path)") }
            #expect(line != nil, "no error for \(path) in: \(run.stderr)")
            // Each error says what was expected, not just where.
            #expect((line?.count ?? 0) > file.count + path.count + 10, "\(line ?? "")")
        }
        #expect(run.stderr.contains("ftp://"), "\(run)")
        #expect(run.stderr.contains("duplicate"), "\(run)")
    }

    /// The repository's probes.json passes, as does the built-in set.
    @Test func configCheckAcceptsTheShippedProbeSet() throws {
        let sandbox = try Sandbox()
        let shipped = Sandbox.supportDirectory.deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("probes.json").path
        let run = try sandbox.run(["config", "check", shipped], network: .loopbackOnly)
        #expect(run.status == 0, "\(run)")
        let builtIn = try sandbox.run(["config", "check"], network: .loopbackOnly)
        #expect(builtIn.status == 0, "\(builtIn)")
    }

    @Test func configCheckMissingFileIsExit78() throws {
        let sandbox = try Sandbox()
        let missing = sandbox.path("absent.json")
        let run = try sandbox.run(["config", "check", missing], network: .loopbackOnly)
        #expect(run.status == 78, "\(run)")
        #expect(run.stderr.contains(missing), "\(run)")
    }

    /// $NETPROBE_CONFIG is the probe set when --config is not given.
    @Test func environmentConfigIsUsedWithoutConfigOption() throws {
        let sandbox = try Sandbox()
        var set = ProbeSet.healthy(2)
        set.add("from-env", expecting: .firefox)
        let file = try sandbox.write(set, as: "env.json")
        let run = try sandbox.run(["--json"], servers: [ProbeSet.httpServer], environment: ["NETPROBE_CONFIG": file])
        #expect(run.status == 0, "\(run)")
        let report = try run.report()
        #expect(report.verdict == "online", "\(run)")
        #expect(report.probes.map(\.name) == ["apple", "google", "from-env"], "\(run)")

        let check = try sandbox.run(["config", "check"], network: .loopbackOnly, environment: ["NETPROBE_CONFIG": file])
        #expect(check.status == 0, "\(check)")
        #expect(check.stdout.contains(file), "\(check)")
    }

    /// A $NETPROBE_CONFIG that is missing or invalid is an error, not a fallback to the built-in set.
    @Test func brokenEnvironmentConfigIsExit78() throws {
        let sandbox = try Sandbox()
        let missing = sandbox.path("absent.json")
        let run = try sandbox.run(["--json"], network: .loopbackOnly, environment: ["NETPROBE_CONFIG": missing])
        #expect(run.status == 78, "\(run)")
        #expect(run.stderr.contains(missing), "\(run)")
        #expect(run.stdout.isEmpty, "\(run)")

        let broken = try sandbox.write("broken.json", Self.brokenProbes)
        let check = try sandbox.run(["config", "check"], network: .loopbackOnly, environment: ["NETPROBE_CONFIG": broken])
        #expect(check.status == 78, "\(check)")
        #expect(check.stderr.contains("\(broken): $.probes[1].url"), "\(check)")
    }

    /// --config wins over $NETPROBE_CONFIG (even a broken one, which is then not read).
    @Test func configOptionWinsOverEnvironment() throws {
        let sandbox = try Sandbox()
        let broken = try sandbox.write("broken.json", Self.brokenProbes)
        let good = try sandbox.write(ProbeSet.healthy(3))
        let run = try sandbox.run(["--json", "--config", good], servers: [ProbeSet.httpServer],
                                  environment: ["NETPROBE_CONFIG": broken])
        #expect(run.status == 0, "\(run)")
        #expect(try run.report().verdict == "online", "\(run)")
    }

    /// The probe set's own timeout is the deadline when --timeout is not given.
    @Test func probeSetTimeoutIsTheDefaultDeadline() throws {
        let sandbox = try Sandbox()
        let config = try sandbox.write(ProbeSet.all("/stall", timeout: 1))
        let run = try sandbox.run(["--json", "--config", config], servers: [ProbeSet.httpServer])
        #expect(run.status == 1, "\(run)")
        #expect(try run.report().reason == "timeout", "\(run)")
        let elapsed = try #require(run.elapsed)
        #expect(elapsed > 0.5 && elapsed < 2.5, "took \(elapsed) s with a 1 s probe-set timeout")
    }
}
