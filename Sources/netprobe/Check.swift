import ArgumentParser
import NetprobeWire
import NetprobeVerdict
import NetprobeOutput
import NetprobeReport
import NetprobeSystem
import NetprobeNetwork
import NetprobeCheck
import NetprobeWatch

struct Check: ParsableCommand {
    static let configuration = CommandConfiguration(
        // Named, not derived from the type name at every start (String(describing:) is costly).
        commandName: "check",
        abstract: "One-shot verdict: online, portal or offline (the default command).",
        discussion: """
            Asks the kernel which way the machine's traffic goes (as `ip route get` does, policy \
            rules and tables applied); with no route, or no usable link or address on it, it answers \
            "offline" at once and sends nothing. Otherwise all probes run concurrently and netprobe \
            answers as soon as the verdict can no longer change. With --all-paths every (interface, \
            family) that has a default route is probed on its own, bound to its interface and family, \
            and has its own verdict; the overall verdict is the best among the paths the kernel routes \
            the machine's traffic through. Exit status: 0 online, 1 offline, 2 portal, 64 bad command \
            line, 70 internal error, 78 bad configuration.
            """
    )

    @OptionGroup var options: ProbeOptions

    @Flag(name: .customLong("all-paths"), help: ArgumentHelp(
        "Probe every path - each (interface, family) with a default route - on its own, each with its own verdict.",
        discussion: "The overall verdict is the best among the paths the kernel routes the machine's traffic through."))
    var allPaths = false

    func run() throws {
        let config = try options.loadConfig()
        let report: Report
        do {
            report = try Checker().run(options.checkOptions(config: config, allPaths: allPaths))
        } catch {
            throw Output.fail(error.description, status: ExitStatus.internalError)
        }
        if !options.quiet { Output.write(Output.render(report, format: options.effectiveFormat)) }
        throw ExitCode(report.exitCode)
    }
}
