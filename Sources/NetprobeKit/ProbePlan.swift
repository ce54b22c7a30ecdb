import NetprobeCore
import NetprobeHTTP

/// Which probes to send, and how, once the gate has passed.
struct ProbePlan {
    var requests: [ProbeRequest] = []
    var specs: [ProbeSpec] = []
    /// Probes excluded by -4/-6/-i or by a family the path cannot carry.
    var filtered: [ProbeSpec] = []

    init(config: ProbeConfig, families: Set<AddressFamily>, interfaces wanted: [String], through: [String], timeout: Double, caBundle: String?) {
        // With -i, probes leave through the chosen interface (as NetworkManager binds its check to
        // the device); with several, through the first the gate found a default route on.
        let binding = wanted.isEmpty ? nil : (through.first { wanted.contains($0) } ?? wanted.first)
        for spec in config.probes {
            if let family = spec.family, !families.contains(family) {
                filtered.append(spec)
                continue
            }
            if let interface = spec.interface, !wanted.isEmpty, !wanted.contains(interface) {
                filtered.append(spec)
                continue
            }
            var request = ProbeRequest(name: spec.name, url: spec.url, timeout: min(config.probeTimeout, timeout))
            request.family = spec.family ?? (families.count == 1 ? families.first : nil)
            request.interface = spec.interface ?? binding
            request.maxBodyBytes = config.maxBodyBytes
            request.caBundle = caBundle
            requests.append(request)
            specs.append(spec)
        }
    }
}
