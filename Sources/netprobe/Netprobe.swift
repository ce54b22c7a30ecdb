import ArgumentParser

@main
struct Netprobe: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "netprobe",
        abstract: "Tell, fast and with evidence, whether this machine is online, behind a captive portal, or offline.",
        discussion: """
            netprobe joins what the kernel knows (links, addresses, routes) with what the network \
            answers (HTTP probes of well-known "success" pages). Link and route state can only ever \
            prove "offline"; "online" needs a quorum of independent endpoints answering exactly as \
            expected; a redirect, a 511 or a foreign page on a probe is a captive portal speaking.

            Exit status: 0 online, 1 offline, 2 portal, 64 bad command line, 70 internal error, \
            78 bad configuration.

            Examples:
              netprobe                         one-shot check, text
              netprobe --json | jq .verdict    machine-readable
              netprobe wait --timeout 60 && ./deploy
              netprobe path                    links, addresses, routes, DNS; sends nothing
              netprobe config check probes.json

            See netprobe(1) for the verdict rules and every reason code.
            """,
        version: "0.1.0",
        subcommands: [Check.self, Path.self, ConfigCommand.self, Wait.self, Watch.self],
        defaultSubcommand: Check.self
    )
}
