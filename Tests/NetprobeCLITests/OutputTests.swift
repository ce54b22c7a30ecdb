import Foundation
import Testing

/// What netprobe prints: network bytes never reach the terminal raw, colour only on
/// a TTY without NO_COLOR, --quiet prints nothing, --json is --format json.
@Suite(.timeLimit(.minutes(2)))
struct OutputTests {
    static let escape = "\u{1B}"

    /// Control characters other than the newlines between lines.
    static func controlCharacters(in text: String) -> [UInt32] {
        text.unicodeScalars.map(\.value).filter { ($0 < 0x20 && $0 != 0x0A) || (0x7F...0x9F).contains($0) }
    }

    /// A portal whose Location and body carry ESC, BEL, BS, DEL and OSC sequences.
    @Test func controlCharactersFromTheNetworkAreEscapedInText() throws {
        let sandbox = try Sandbox()
        let config = try sandbox.write(ProbeSet.all("/control-chars"))
        let run = try sandbox.run(["--config", config], servers: [ProbeSet.httpServer])
        #expect(run.status == 2, "\(run)")
        #expect(run.stdout.hasPrefix("portal"), "\(run)")
        #expect(Self.controlCharacters(in: run.stdout).isEmpty,
                "raw control characters \(Self.controlCharacters(in: run.stdout)) in: \(run.stdout.debugDescription)")
        // The hostile Location is shown, visibly escaped, not dropped.
        #expect(run.stdout.contains("\\x1b"), "\(run.stdout)")
        #expect(run.stdout.contains("portal.example"), "\(run.stdout)")
    }

    /// JSON carries the hostile header as valid, escaped JSON: never a raw control byte.
    @Test func controlCharactersAreEscapedInJSON() throws {
        let sandbox = try Sandbox()
        let config = try sandbox.write(ProbeSet.all("/control-chars"))
        let run = try sandbox.run(["--json", "--config", config], servers: [ProbeSet.httpServer])
        #expect(run.status == 2, "\(run)")
        #expect(!run.stdout.contains(Self.escape), "raw ESC in JSON: \(run.stdout.debugDescription)")
        let report = try run.report()
        #expect(report.verdict == "portal")
        let locations = report.probes.compactMap(\.location)
        #expect(!locations.isEmpty, "\(run)")
        #expect(locations.allSatisfy { $0.hasPrefix("http://portal.example/") }, "\(locations.map(\.debugDescription))")
    }

    /// stdout is a file here, not a TTY: no colour, with or without NO_COLOR.
    @Test(arguments: [[:], ["NO_COLOR": "1"]])
    func noANSIEscapesWhenNotATerminal(environment: [String: String]) throws {
        let sandbox = try Sandbox()
        let config = try sandbox.write(ProbeSet.healthy(3))
        let run = try sandbox.run(["--config", config], servers: [ProbeSet.httpServer], environment: environment)
        #expect(run.status == 0, "\(run)")
        #expect(run.stdout.hasPrefix("online"), "\(run)")
        #expect(!run.stdout.contains(Self.escape), "\(run.stdout.debugDescription)")
    }

    /// On a pseudo-terminal netprobe colours its verdict, unless NO_COLOR is set.
    @Test func colourOnATerminalUnlessNoColor() throws {
        let sandbox = try Sandbox()
        let coloured = try sandbox.run([], network: .loopbackOnly, tty: true)
        #expect(coloured.status == 1, "\(coloured)")
        #expect(coloured.stdout.contains("offline"), "\(coloured)")
        #expect(coloured.stdout.contains(Self.escape + "["), "no colour on a TTY: \(coloured.stdout.debugDescription)")

        let plain = try sandbox.run([], network: .loopbackOnly, environment: ["NO_COLOR": "1"], tty: true)
        #expect(plain.status == 1, "\(plain)")
        #expect(plain.stdout.contains("offline"), "\(plain)")
        #expect(!plain.stdout.contains(Self.escape), "colour despite NO_COLOR: \(plain.stdout.debugDescription)")
    }

    enum Scenario: String, CaseIterable {
        case online, portal, offline, badConfig
    }

    /// --quiet prints nothing, on stdout or stderr, and the exit status still says it all.
    @Test(arguments: Scenario.allCases)
    func quietPrintsNothingAndKeepsTheStatus(scenario: Scenario) throws {
        let sandbox = try Sandbox()
        let set: ProbeSet
        let expected: Int32
        switch scenario {
        case .online: (set, expected) = (.healthy(3), 0)
        case .portal: (set, expected) = (.all("/redirect"), 2)
        case .offline: (set, expected) = (.all("/garbage"), 1)
        case .badConfig: (set, expected) = (ProbeSet(), 78)
        }
        let config = try sandbox.write(set)
        for flag in ["--quiet", "-q"] {
            let run = try sandbox.run([flag, "--config", config], servers: [ProbeSet.httpServer])
            #expect(run.status == expected, "\(run)")
            #expect(run.stdout.isEmpty, "\(run)")
            if scenario != .badConfig { #expect(run.stderr.isEmpty, "\(run)") }
        }
    }

    @Test func quietOnTheGatePathKeepsExitOne() throws {
        let sandbox = try Sandbox()
        let run = try sandbox.run(["--quiet"], network: .loopbackOnly)
        #expect(run.status == 1, "\(run)")
        #expect(run.stdout.isEmpty && run.stderr.isEmpty, "\(run)")
    }

    /// --json and --format json print the same report (apart from timings and timestamps).
    /// One probe and quorum 1, so no race decides which probes were still needed.
    @Test(arguments: [Network.loopbackOnly, Network.online])
    func jsonFlagEqualsFormatJSON(network: Network) throws {
        let sandbox = try Sandbox()
        var set = ProbeSet(quorum: 1)
        set.add("google", expecting: .google, path: "/redirect")
        let config = try sandbox.write(set)
        let servers = [ProbeSet.httpServer]
        let short = try sandbox.run(["--json", "--config", config], network: network, servers: servers)
        let long = try sandbox.run(["--format", "json", "--config", config], network: network, servers: servers)
        #expect(short.status == long.status, "\(short)\n\(long)")
        #expect(short.status == (network == .online ? 2 : 1), "\(short)")
        #expect(try Self.stableText(short) == Self.stableText(long), "\(short.stdout)\n\(long.stdout)")
        // One object, one line, nothing else on stdout.
        #expect(short.stdout.split(separator: "\n").count == 1, "\(short.stdout)")
    }

    static func stableText(_ run: Run) throws -> String {
        let stable = JSONReport.stable(try run.report().root)
        let data = try JSONSerialization.data(withJSONObject: stable, options: [.sortedKeys])
        return String(decoding: data, as: UTF8.self)
    }

    @Test func prometheusFormatNamesTheVerdict() throws {
        let sandbox = try Sandbox()
        let run = try sandbox.run(["--format", "prometheus"], network: .loopbackOnly)
        #expect(run.status == 1, "\(run)")
        #expect(run.stdout.contains("offline"), "\(run)")
        #expect(!run.stdout.contains("{\"verdict\""), "\(run)")
    }
}
