import ArgumentParser
import NetprobeWire
import NetprobeVerdict
import NetprobeOutput
import NetprobeReport
import NetprobeSystem
import NetprobeNetwork
import NetprobeCheck
import NetprobeWatch

struct Path: ParsableCommand {
    static let configuration = CommandConfiguration(
        // Named, not derived from the type name at every start (String(describing:) is costly).
        commandName: "path",
        abstract: "Show links, addresses, routes and DNS servers; sends no probe traffic.",
        discussion: "The same view of the kernel that gates every check, read from netlink, with where the kernel sends the machine's traffic of each family. On an IPv6-only machine it also asks the resolver for ipv4only.arpa (RFC 7050) to show a NAT64 prefix; nothing else is sent. Exit status 0, or 70 when netlink cannot be read."
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
            var snapshot = try Checker().describedSnapshot()
            // One DNS query, and only on an IPv6-only machine: the NAT64 prefix (RFC 7050).
            snapshot.nat64 = NAT64Discovery.discover(snapshot, deadline: .now + .seconds(1))
            Output.write(json || format == .json ? JSONFormatter.format(snapshot) : TextFormatter.format(snapshot))
        } catch {
            throw Output.fail(error.description, status: ExitStatus.internalError)
        }
    }
}
