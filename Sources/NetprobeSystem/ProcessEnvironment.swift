#if canImport(Glibc)
import Glibc
#endif
import NetprobeWire
import NetprobeVerdict

/// One variable of the process environment, read where it is needed. ProcessInfo's
/// `environment` builds a dictionary of every variable on each call: three of those cost an
/// offline check more than its whole configuration lookup.
public enum ProcessEnvironment {
    public static func value(_ name: String) -> String? {
        getenv(name).map { String(cString: $0) }
    }

    /// Just the variables curl reads for proxies (`ProxySettings.variableNames`), read once.
    public static let proxyVariables: [String: String] = {
        var found: [String: String] = [:]
        for name in ProxySettings.variableNames {
            if let value = value(name) { found[name] = value }
        }
        return found
    }()
}
