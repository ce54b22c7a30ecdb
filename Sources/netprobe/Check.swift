import ArgumentParser
import NetprobeCore
import NetprobeKit

struct Check: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "One-shot verdict: online, portal or offline (the default command).",
        discussion: """
            Reads the path from the kernel; with no usable link, address or default route it answers \
            "offline" at once and sends nothing. Otherwise all probes run concurrently and netprobe \
            answers as soon as the verdict can no longer change. Exit status: 0 online, 1 offline, \
            2 portal, 64 bad command line, 70 internal error, 78 bad configuration.
            """
    )

    @OptionGroup var options: ProbeOptions

    func run() throws {
        let config = try options.loadConfig()
        let report: Report
        do {
            report = try Checker().run(options.checkOptions(config: config))
        } catch {
            throw Output.fail(error.description, status: ExitStatus.internalError)
        }
        if !options.quiet { Output.write(Output.render(report, format: options.effectiveFormat)) }
        throw ExitCode(report.exitCode)
    }
}
