/// The built-in probe set, the repository's `probes.json` constructed directly, so the binary
/// alone works and a check does not parse JSON it carries itself. DefaultProbesTests fails
/// when the two differ.
public enum DefaultProbes {
    public static func config() -> ProbeConfig {
        ProbeConfig(version: 1, timeout: 10, probeTimeout: 6, quorum: 2, maxBodyBytes: 65536, probes: [
            ProbeSpec(name: "apple", url: "http://captive.apple.com/hotspot-detect.html", operatorName: "apple",
                      expect: Expectation(statuses: [200], body: .contains("Success"))),
            ProbeSpec(name: "google", url: "http://connectivitycheck.gstatic.com/generate_204", operatorName: "google",
                      expect: Expectation(statuses: [204], body: .exact(""))),
            ProbeSpec(name: "firefox", url: "http://detectportal.firefox.com/success.txt", operatorName: "mozilla",
                      expect: Expectation(statuses: [200], body: .prefix("success"))),
            ProbeSpec(name: "microsoft", url: "http://www.msftconnecttest.com/connecttest.txt", operatorName: "microsoft",
                      expect: Expectation(statuses: [200], body: .exact("Microsoft Connect Test"))),
            ProbeSpec(name: "gnome", url: "http://nmcheck.gnome.org/check_network_status.txt", operatorName: "gnome",
                      expect: Expectation(statuses: [200], body: .prefix("NetworkManager is online"),
                                          successHeader: HeaderRule(name: "X-NetworkManager-Status", value: "online"))),
            ProbeSpec(name: "google-https", url: "https://www.google.com/generate_204", operatorName: "google",
                      expect: Expectation(statuses: [204])),
            ProbeSpec(name: "apple-https", url: "https://captive.apple.com/hotspot-detect.html", operatorName: "apple",
                      expect: Expectation(statuses: [200], body: .contains("Success"))),
            ProbeSpec(name: "cloudflare-https", url: "https://cp.cloudflare.com/generate_204", operatorName: "cloudflare",
                      expect: Expectation(statuses: [204])),
        ])
    }
}
