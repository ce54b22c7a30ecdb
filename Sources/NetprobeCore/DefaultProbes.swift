/// The built-in probe set: a byte-for-byte copy of the repository's `probes.json`,
/// so the binary alone works. A test fails when the two differ (`make default-probes` rewrites this file).
public enum DefaultProbes {
    public static let json = #"""
{
  "version": 1,
  "timeout": 10,
  "probe_timeout": 6,
  "quorum": 2,
  "max_body_bytes": 65536,
  "probes": [
    {
      "name": "apple",
      "operator": "apple",
      "url": "http://captive.apple.com/hotspot-detect.html",
      "expect": { "status": [200], "body": { "contains": "Success" } }
    },
    {
      "name": "google",
      "operator": "google",
      "url": "http://connectivitycheck.gstatic.com/generate_204",
      "expect": { "status": [204], "body": { "exact": "" } }
    },
    {
      "name": "firefox",
      "operator": "mozilla",
      "url": "http://detectportal.firefox.com/success.txt",
      "expect": { "status": [200], "body": { "prefix": "success" } }
    },
    {
      "name": "microsoft",
      "operator": "microsoft",
      "url": "http://www.msftconnecttest.com/connecttest.txt",
      "expect": { "status": [200], "body": { "exact": "Microsoft Connect Test" } }
    },
    {
      "name": "gnome",
      "operator": "gnome",
      "url": "http://nmcheck.gnome.org/check_network_status.txt",
      "expect": {
        "status": [200],
        "body": { "prefix": "NetworkManager is online" },
        "success_header": { "name": "X-NetworkManager-Status", "value": "online" }
      }
    },
    {
      "name": "google-https",
      "operator": "google",
      "url": "https://www.google.com/generate_204",
      "expect": { "status": [204] }
    }
  ]
}
"""#

    public static func config() -> ProbeConfig {
        do {
            return try ConfigParser.parse(bytes: Array(json.utf8), file: "(built-in probes.json)")
        } catch {
            preconditionFailure("the built-in probes.json is invalid: \(error)")
        }
    }
}
