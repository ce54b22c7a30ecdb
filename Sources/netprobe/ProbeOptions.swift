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

enum OutputFormat: String, ExpressibleByArgument, CaseIterable {
    case text, json, prometheus

    /// Spelled out: the parser's default builds the list through a key path, instantiated at
    /// run time at every start.
    static var allValueStrings: [String] { allCases.map { $0.rawValue } }
    /// The parser's default compares each case's two descriptions through string interpolation,
    /// at every start, to find what is spelled out here: none differ.
    static var allValueDescriptions: [String: String] { [:] }
}

/// Options shared by check, wait and watch (their names are a stable interface: scripts, units
/// and the man page use them). Every name is spelled out: a `.long` name is derived from the
/// property name at every start.
struct ProbeOptions: ParsableArguments {
    @Option(name: .customLong("config"), help: ArgumentHelp("Probe set to use (default: $NETPROBE_CONFIG, else /etc/netprobe/probes.json, else the built-in set).", valueName: "file"),
            completion: .file(extensions: ["json"]))
    var config: String?

    // Optional, the default named in the help: a default value costs every start two
    // conformance scans in the parser's help text for it.
    @Option(name: .customLong("format"), help: "Output format: text (the default), json or prometheus (watch: text or json).")
    var format: OutputFormat?

    @Flag(name: .customLong("json"), help: "Same as --format json.")
    var json = false

    @Option(name: [.customShort("i"), .customLong("interface")], help: ArgumentHelp("Only consider this interface; probes are bound to it (repeatable).", valueName: "if"))
    var interface: [String] = []

    @Flag(name: .customShort("4"), help: "Only IPv4.")
    var ipv4Only = false

    @Flag(name: .customShort("6"), help: "Only IPv6.")
    var ipv6Only = false

    // `.unconditional`: `--timeout -1` is a value to refuse as out of range, not a missing value.
    @Option(name: .customLong("timeout"), parsing: .unconditional,
            help: ArgumentHelp("Hard deadline in decimal seconds (above 0, at most 86400). check: for the whole command (default: the probe set's \"timeout\", 10 for the built-in set); wait: for the whole wait (default 60); watch: for each check.", valueName: "seconds"),
            transform: Seconds.timeout.parse("--timeout"))
    var timeout: Double?

    @Option(name: .customLong("ca-bundle"), help: ArgumentHelp("CA bundle for HTTPS probes, a regular file of at most 16 MiB (default: the system's).", valueName: "file"), completion: .file())
    var caBundle: String?

    @Option(name: .customLong("capport-url"), help: ArgumentHelp("Captive Portal API (RFC 8908) to ask, an https URL (an http:// one is reported, not asked); default: the one the network announced (DHCP option 114, via systemd-networkd, dhcpcd or dhclient).", valueName: "url"))
    var capportURL: String?

    @Option(name: .customLong("proxy"), help: ArgumentHelp("Probe through this proxy (http://, https://, socks4://, socks4a://, socks5://, socks5h://); default: the proxy curl would take from http_proxy, HTTPS_PROXY, ALL_PROXY and NO_PROXY.", valueName: "url"))
    var proxy: String?

    @Flag(name: .customLong("no-proxy"), help: "Probe directly, whatever the environment says about proxies.")
    var noProxy = false

    @Flag(name: .customLong("no-link-resolvers"), help: "Never ask the resolvers the network announced (DHCP, router advertisements) when the configured ones fail; report dns-failed instead.")
    var noLinkResolvers = false

    @Flag(name: [.customShort("q"), .customLong("quiet")], help: "Print nothing; the exit status says it all.")
    var quiet = false

    func validate() throws {
        if ipv4Only && ipv6Only { throw ValidationError("-4 and -6 exclude each other; give at most one.") }
        if proxy != nil && noProxy { throw ValidationError("--proxy and --no-proxy exclude each other; give at most one.") }
        do {
            try proxySettings().validate()
        } catch {
            throw ValidationError(TerminalText.escape(error.description) + ".")
        }
        // An http:// URL is accepted and treated as an announced one would be: not asked, and the
        // report says why. Anything that is no http(s) URL at all is a mistake on the command line.
        if let capportURL, capportURL != CapportReport.unrestrictedURI,
           !CapportReport.isHTTPS(capportURL) && !CapportReport.isPlainHTTP(capportURL) {
            throw ValidationError("--capport-url must be an https:// URL (RFC 8908), not '\(TerminalText.escape(capportURL))'.")
        }
        if let caBundle, let problem = CABundleFile.problem(caBundle) {
            throw ValidationError("--ca-bundle \(TerminalText.escape(caBundle)): \(problem).")
        }
        for name in interface where !InterfaceName.isValid(name) {
            throw ValidationError("'\(TerminalText.escape(name))' is not an interface name (1-15 bytes, no '/' or spaces).")
        }
    }

    var effectiveFormat: OutputFormat { json ? .json : format ?? .text }

    /// The probe set: --config, else $NETPROBE_CONFIG, else /etc/netprobe/probes.json, else the
    /// built-in set; a bad one ends the command with status 78.
    func loadConfig() throws -> ProbeConfig {
        do {
            return try ConfigLookup.resolve(explicit: config).0
        } catch {
            throw Output.fail("invalid configuration:\n\(error.description)", status: ExitStatus.badConfig)
        }
    }

    /// The one options value of a check, wait or watch (`timeout`: the command's own default
    /// when --timeout is absent; nil leaves the probe set's).
    func checkOptions(config: ProbeConfig, timeout defaultTimeout: Double? = nil, allPaths: Bool = false) -> CheckOptions {
        var options = CheckOptions(config: config, families: families, interfaces: interface, timeout: timeout ?? defaultTimeout,
                                   caBundle: caBundle, capportURL: capportURL, allPaths: allPaths,
                                   proxy: (try? proxySettings()) ?? ProxySettings(choice: .none))
        options.askLinkResolvers = !noLinkResolvers
        options.hedged = true
        return options
    }

    /// --proxy, --no-proxy, else the environment's proxy variables (checked in `validate`).
    func proxySettings() throws(ProxyURLError) -> ProxySettings {
        try ProxySettings(proxyOption: proxy, noProxy: noProxy, environment: ProcessEnvironment.proxyVariables)
    }

    var families: Set<AddressFamily> {
        if ipv4Only { return [.ipv4] }
        if ipv6Only { return [.ipv6] }
        return Set(AddressFamily.allCases)
    }
}
