#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import NetprobeWire

/// Where probes get their proxy from: `--proxy URL`, `--no-proxy`, or (default) the
/// environment, read the way curl reads it, so netprobe answers for the path curl,
/// apt, pip and git on this machine really take.
public enum ProxyChoice: Sendable, Equatable {
    /// curl's variables: `http_proxy`, `HTTPS_PROXY`/`https_proxy`, `ALL_PROXY`/`all_proxy`, `NO_PROXY`/`no_proxy`.
    case environment
    /// Every probe through this proxy, whatever the environment says (`--proxy`).
    case explicit(ProxyURL)
    /// Every probe direct (`--no-proxy`).
    case none
}

public struct ProxySettings: Sendable, Equatable {
    /// Every variable `environmentProxy` and `proxy(for:)` may read: a caller can hand over
    /// just these instead of the whole environment.
    public static let variableNames = ["http_proxy", "https_proxy", "HTTPS_PROXY", "all_proxy", "ALL_PROXY",
                                       "no_proxy", "NO_PROXY"]

    public var choice: ProxyChoice
    /// The process environment (only the proxy variables matter); empty values count as unset, as in curl.
    public var environment: [String: String]

    public init(choice: ProxyChoice = .environment, environment: [String: String] = [:]) {
        self.choice = choice
        self.environment = environment
    }

    /// The settings for the command-line options. Giving both is the caller's usage error
    /// to report; here `--no-proxy` wins so the function stays total.
    /// - Throws: the `--proxy` value does not parse or has another scheme.
    public init(proxyOption: String?, noProxy: Bool, environment: [String: String]) throws(ProxyURLError) {
        if noProxy {
            self.init(choice: .none, environment: environment)
        } else if let proxyOption {
            self.init(choice: .explicit(try ProxyURL(parsing: proxyOption, source: "--proxy")), environment: environment)
        } else {
            self.init(choice: .environment, environment: environment)
        }
    }

    /// The proxy a request for `url` goes through, nil for direct.
    /// - Throws: the environment variable that applies holds an unusable proxy URL
    ///   (curl would fail the transfer; netprobe says which variable is wrong instead).
    public func proxy(for url: String) throws(ProxyURLError) -> ProxyURL? {
        switch choice {
        case .none: return nil
        case .explicit(let proxy): return proxy
        case .environment:
            guard let target = Self.schemeAndHost(url) else { return nil }
            guard let (name, value) = environmentProxy(scheme: target.scheme) else { return nil }
            if let noProxy = variable("no_proxy") ?? variable("NO_PROXY"),
               NoProxyList(noProxy.value).matches(host: target.host) {
                return nil
            }
            return try ProxyURL(parsing: value, source: name)
        }
    }

    /// Checks every proxy variable a probe could use (http and https), so a bad one is
    /// reported once, up front, rather than as a failure of some probes.
    public func validate() throws(ProxyURLError) {
        guard choice == .environment else { return }
        for scheme in ["http", "https"] {
            if let (name, value) = environmentProxy(scheme: scheme) {
                _ = try ProxyURL(parsing: value, source: name)
            }
        }
    }

    /// curl's lookup (lib/url.c detect_proxy): `<scheme>_proxy` in lower case, then in
    /// upper case except for http (HTTP_PROXY can be set by a CGI request's "Proxy:"
    /// header, httpoxy), then `all_proxy`, `ALL_PROXY`. Returns the variable's name and value.
    func environmentProxy(scheme: String) -> (name: String, value: String)? {
        let lower = scheme + "_proxy"
        if let found = variable(lower) { return found }
        if scheme != "http", let found = variable(lower.uppercased()) { return found }
        return variable("all_proxy") ?? variable("ALL_PROXY")
    }

    /// curl_getenv treats a set-but-empty variable as unset.
    private func variable(_ name: String) -> (name: String, value: String)? {
        guard let value = environment[name], !value.isEmpty else { return nil }
        return (name, value)
    }

    /// Lower-cased scheme and host (brackets removed) of an absolute http(s) URL.
    static func schemeAndHost(_ url: String) -> (scheme: String, host: String)? {
        guard let host = URLRules.httpHost(url), let scheme = URLComponents(string: url)?.scheme?.lowercased() else {
            return nil
        }
        let bare = host.hasPrefix("[") && host.hasSuffix("]") ? String(host.dropFirst().dropLast()) : host
        return (scheme, bare)
    }
}
