import ArgumentParser
import NetprobeCore
import NetprobeKit

struct Path: ParsableCommand {
    static let configuration = CommandConfiguration(
        // Named, not derived from the type name at every start (String(describing:) is costly).
        commandName: "path",
        abstract: "Show links, addresses, default routes and DNS servers; sends no probe traffic.",
        discussion: "The same view of the kernel that gates every check, read from netlink. Exit status 0, or 70 when netlink cannot be read."
    )

    enum PathFormat: String, ExpressibleByArgument, CaseIterable {
        case text, json
    }

    @Option(name: .customLong("format"), help: "Output format: text or json.")
    var format: PathFormat = .text

    @Flag(name: .customLong("json"), help: "Same as --format json.")
    var json = false

    func run() throws {
        do {
            let snapshot = try Checker().snapshot()
            Output.write(json || format == .json ? JSONFormatter.format(snapshot) : TextFormatter.format(snapshot))
        } catch {
            throw Output.fail(error.description, status: ExitStatus.internalError)
        }
    }
}
