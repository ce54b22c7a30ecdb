import NetprobeWire
/// What else the network is doing, read from the same evidence: a transparent proxy
/// in the way, a lying resolver, and why HTTPS failed when HTTP worked.
public enum NetworkInsights {
    /// A transparent proxy: correct answers from at least two different operators carry the
    /// same proxy identity — a `Via` hop's received-by name, the host in `X-Cache`/
    /// `X-Cache-Lookup` "... from HOST", or any `X-Squid-Error`/`X-BlueCoat-Via`. One
    /// operator's own CDN marks only its own answers, so a single operator never counts:
    /// only a box between us and all of them stamps every answer alike.
    public static func proxy(_ evidence: [ProbeEvidence]) -> Bool {
        var operatorsBySign: [String: Set<String>] = [:]
        for index in evidence.indices where evidence[index].outcome == .success && !evidence[index].proxySigns.isEmpty {
            for sign in evidence[index].proxySigns {
                operatorsBySign[sign, default: []].insert(evidence[index].spec.operatorName)
            }
        }
        return operatorsBySign.values.contains { $0.count >= 2 }
    }

    /// The proxy identities one answer carries (lower-cased, prefixed with the header's name).
    static func proxySigns(_ observation: ProbeObservation) -> Set<String> {
        var signs: Set<String> = []
        for (name, value) in observation.headers {
            switch name {
            case "via":
                for hop in value.split(separator: ",") {
                    let words = hop.split(whereSeparator: { $0 == " " || $0 == "\t" })
                    if words.count >= 2 { signs.insert("via:" + words[1].lowercased()) }
                }
            case "x-cache", "x-cache-lookup":
                let lower = value.lowercased()
                if let range = lower.firstRange(of: " from ") {
                    let host = lower[range.upperBound...].split(separator: " ").first.map(String.init) ?? ""
                    if !host.isEmpty { signs.insert("x-cache:" + host) }
                }
            case "x-squid-error", "x-bluecoat-via":
                signs.insert(name + ":" + MarkupScanner.trim(value).lowercased())
            default:
                continue
            }
        }
        return signs
    }

    /// "NAME: ERROR_CLASS: what happened" for each HTTPS probe that did not validate, in name
    /// order (so the text does not depend on which answered first), joined by "; ", when
    /// `partial` is true.
    public static func partialError(_ evidence: [ProbeEvidence], partial: Bool?) -> String? {
        guard partial == true else { return nil }
        let failed = evidence.filter { $0.spec.isHTTPS && ($0.outcome == .failure || $0.outcome == .portal) }
            .sorted { $0.spec.name < $1.spec.name }
        guard !failed.isEmpty else { return nil }
        return failed.map { item in
            let errorClass = item.errorClass?.rawValue ?? "other"
            let detail: String
            if let error = item.observation?.transportError {
                detail = error.message
            } else if let status = item.observation?.status {
                detail = "HTTP status \(status)"
            } else {
                detail = "no answer"
            }
            return "\(item.spec.name): \(errorClass): \(detail)"
        }.joined(separator: "; ")
    }

    /// Any probe host name led to an interception address (`Classifier.dnsHijack`).
    public static func dnsHijack(_ evidence: [ProbeEvidence]) -> Bool {
        evidence.indices.contains { evidence[$0].dnsHijack == true }
    }
}
