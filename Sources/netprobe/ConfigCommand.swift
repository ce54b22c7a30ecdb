import ArgumentParser
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import NetprobeWire
import NetprobeVerdict
import NetprobeOutput
import NetprobeReport
import NetprobeSystem
import NetprobeNetwork
import NetprobeCheck
import NetprobeWatch

struct ConfigCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "config",
        abstract: "Work with probe sets (probes.json).",
        subcommands: [ConfigCheck.self]
    )
}

struct ConfigCheck: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check",
        abstract: "Validate a probes.json and say exactly what is wrong.",
        discussion: """
            Without FILE, checks the file netprobe would use ($NETPROBE_CONFIG, else /etc/netprobe/probes.json, \
            else the built-in set). Every problem is printed as FILE: JSON-PATH: what was expected. \
            Exit status 0 when valid, 78 when not.
            """
    )

    @Argument(help: ArgumentHelp("The probes.json to check.", valueName: "file"), completion: .file(extensions: ["json"]))
    var file: String?

    @Flag(name: [.customShort("q"), .customLong("quiet")], help: "Print nothing; the exit status says it all.")
    var quiet = false

    func run() throws {
        do {
            let (config, source) = try ConfigLookup.resolve(explicit: file)
            if !quiet {
                Output.say("\(source): ok: \(config.probes.count) probe(s) from \(config.operatorCount) operator(s), quorum \(config.quorum), timeout \(ConfigParser.show(config.timeout)) s")
            }
        } catch {
            if !quiet { Output.writeError(error.description + "\n") }
            throw ExitCode(ExitStatus.badConfig)
        }
    }
}
