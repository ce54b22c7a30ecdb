import NetprobeWire
import NetprobeVerdict
import NetprobeOutput
import NetprobeReport
import NetprobeSystem
import NetprobeNetwork
import NetprobeCheck
import NetprobeWatch

/// A transfer runner that plays a script instead of the network: each request is answered
/// (or not) at a given moment of virtual time, in that order, and the cut-offs the check
/// asks for are honoured in the same virtual time. Nothing sleeps; a round takes microseconds.
final class ScriptedRunner: TransferRunner {
    struct Answer {
        var at: Duration
        var status: Int?
        var body: String = ""
        var error: TransportErrorKind?
        var headers: [(name: String, value: String)] = []
        /// The address the transfer connected to (CURLINFO_PRIMARY_IP).
        var remoteAddress: String?
    }

    /// The answer for a request (by its name within its path, and the request itself), nil = never answers.
    let script: (String, ProbeRequest) -> Answer?
    private(set) var requests: [ProbeRequest] = []
    /// (request name within its path, virtual moment, error kind if any), in delivery order.
    private(set) var delivered: [(name: String, at: Duration, error: TransportErrorKind?)] = []
    private(set) var rounds = 0
    /// Cut-offs in virtual time: when the check asks for one, the virtual moment of the event
    /// it is handling plus the delay it asked for. Real time spent between events (slow under
    /// a sanitizer) never moves virtual time.
    private var cutoffs: [String: (moment: Duration, error: TransportError)] = [:]
    /// Held requests (`ProbeRequest.held`): when each is released, in virtual time.
    private var releases: [String: Duration] = [:]
    /// The names of the requests that were sent (held ones once released), in order.
    private(set) var sent: [String] = []
    private var virtualNow: Duration = .zero

    init(_ script: @escaping (String, ProbeRequest) -> Answer?) {
        self.script = script
    }

    static func shortName(_ name: String) -> String {
        String(name[(name.firstIndex(of: "/").map { name.index(after: $0) } ?? name.startIndex)...])
    }

    func end(_ names: Set<String>, at instant: ContinuousClock.Instant, with error: TransportError) {
        let delay = max(ContinuousClock.now.duration(to: instant), .zero)
        for name in names { cutoffs[name] = (virtualNow + delay, error) }
    }

    /// Releases held requests at `instant` in the same virtual time as the cut-offs; before the
    /// round (virtual time not started), counted from its start.
    func release(_ names: Set<String>, at instant: ContinuousClock.Instant) {
        let delay = max(ContinuousClock.now.duration(to: instant), .zero)
        for name in names { releases[name] = virtualNow + delay }
    }

    func run(_ requests: [ProbeRequest], deadline: ContinuousClock.Instant,
             onResult: (ProbeObservation) -> Bool) -> [ProbeObservation] {
        rounds += 1
        self.requests += requests
        cutoffs = [:]
        virtualNow = .zero
        defer { releases = [:] }
        let start = ContinuousClock.now
        let limit = start.duration(to: deadline)
        var results = [ProbeObservation?](repeating: nil, count: requests.count)
        var listening = true
        let answers = requests.map { script(Self.shortName($0.name), $0) }
        // When each request was sent: at once, or (held) when released; its answer comes that much later.
        var sentAt: [Duration?] = requests.map { $0.held ? nil : .zero }
        for request in requests where !request.held { sent.append(Self.shortName(request.name)) }

        func deliver(_ index: Int, _ observation: ProbeObservation, at moment: Duration) {
            virtualNow = moment
            results[index] = observation
            delivered.append((Self.shortName(observation.name), moment, observation.transportError?.kind))
            if listening { listening = onResult(observation) }
        }

        while listening {
            let open = requests.indices.filter { results[$0] == nil }
            guard !open.isEmpty else { break }
            // The next thing to happen in virtual time: an answer, a cut-off, or the deadline.
            var next: (moment: Duration, index: Int, cut: TransportError?)?
            var release: (moment: Duration, index: Int)?
            for index in open {
                guard let since = sentAt[index] else {
                    if let at = releases[requests[index].name], max(at, virtualNow) < (release?.moment ?? .seconds(1_000_000)) {
                        release = (max(at, virtualNow), index)
                    }
                    if let cut = cutoffs[requests[index].name] {
                        let moment = max(cut.moment, virtualNow)
                        if moment <= (next?.moment ?? .seconds(1_000_000)) { next = (moment, index, cut.error) }
                    }
                    continue
                }
                if let answer = answers[index], since + answer.at < (next?.moment ?? .seconds(1_000_000)) {
                    next = (since + answer.at, index, nil)
                }
                if let cut = cutoffs[requests[index].name] {
                    let moment = max(cut.moment, virtualNow)
                    if moment <= (next?.moment ?? .seconds(1_000_000)) { next = (moment, index, cut.error) }
                }
            }
            // A release that comes first (and before any cut-off of the same request) sends it.
            if let release, release.moment < limit, release.moment < (next?.moment ?? .seconds(1_000_000)) {
                virtualNow = release.moment
                sentAt[release.index] = release.moment
                sent.append(Self.shortName(requests[release.index].name))
                continue
            }
            guard let event = next, event.moment < limit else {
                for index in open {
                    // Held and never released: never sent, as the real runner reports it.
                    let error = sentAt[index] == nil ? TransportError(kind: .cancelled, code: 42, message: "cancelled")
                                                     : TransportError(kind: .timeout, code: 28, message: "deadline")
                    deliver(index, observation(requests[index], error: error), at: limit)
                }
                break
            }
            let request = requests[event.index]
            if let error = event.cut {
                deliver(event.index, observation(request, error: error), at: event.moment)
            } else if let answer = answers[event.index] {
                var seen = ProbeObservation(name: request.name, url: request.url, status: answer.status, headers: answer.headers,
                                            body: Array(answer.body.utf8),
                                            timings: ProbeTimings(totalMs: answer.at.inMilliseconds),
                                            remoteAddress: answer.remoteAddress)
                if let kind = answer.error { seen.transportError = TransportError(kind: kind, code: 7, message: "\(kind)") }
                deliver(event.index, seen, at: event.moment)
            }
        }
        return zip(requests, results).map { request, result in
            result ?? observation(request, error: TransportError(kind: .cancelled, code: 42, message: "cancelled"))
        }
    }

    private func observation(_ request: ProbeRequest, error: TransportError) -> ProbeObservation {
        ProbeObservation(name: request.name, url: request.url, transportError: error)
    }
}

/// A kernel view that is whatever the test says.
struct FixedPaths: PathSource {
    var current: PathSnapshot
    func snapshot() throws(CheckError) -> PathSnapshot { current }
}
