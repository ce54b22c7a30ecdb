#if canImport(Glibc)
import Glibc
#endif
import NetprobeWire
import NetprobeVerdict
import NetprobeOutput
import NetprobeReport
import NetprobeSystem
import NetprobeNetwork
import NetprobeCheck
import NetprobeWatch

/// --config FILE, else $NETPROBE_CONFIG, else /etc/netprobe/probes.json, else the built-in set.
/// A file that is named but unreadable or invalid is an error, never a silent fallback.
enum ConfigLookup {
    static let systemPath = "/etc/netprobe/probes.json"

    static func resolve(explicit: String?, environment: (String) -> String? = ProcessEnvironment.value) throws(ConfigError) -> (ProbeConfig, String) {
        if let explicit { return (try ConfigParser.load(path: explicit), explicit) }
        if let fromEnvironment = environment("NETPROBE_CONFIG"), !fromEnvironment.isEmpty {
            return (try ConfigParser.load(path: fromEnvironment), fromEnvironment)
        }
        if access(systemPath, F_OK) == 0 {
            return (try ConfigParser.load(path: systemPath), systemPath)
        }
        return (DefaultProbes.config(), "(built-in)")
    }
}
