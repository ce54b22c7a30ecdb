import CCurl
import NetprobeWire
import NetprobeVerdict
import NetprobeSystem

/// Runs HTTP probes concurrently on a libcurl multi handle, a fresh one for every run.
///
/// Not thread-safe by design: libcurl handles must stay on one thread, so a runner
/// is confined to the thread (or actor) that created it, and `run` is not reentrant.
public final class ProbeRunner {
    /// The first run's multi handle, made by `init` so that a runner that cannot have one fails
    /// there. Every later run makes its own: libcurl keeps a CA bundle's certificate store on the
    /// multi handle for 24 hours, and a round must trust the bundle as it is now (a `watch`
    /// runner lives for days).
    private var firstMulti: UnsafeMutableRawPointer?
    private var isRunning = false
    /// Per request name: when a transfer still running is ended, and how it is reported.
    private var cutoffs: [String: (instant: ContinuousClock.Instant, error: TransportError)] = [:]
    /// HTTPS handshakes of the last `run` that used a store an earlier handshake had built
    /// (TrustShares): 0 with no HTTPS, one trusted directory per handshake, or no OpenSSL.
    public private(set) var sharedTrustHandshakes = 0
    /// The libcurl loaded: its version decides which options each transfer sets.
    public let library: CurlLibrary
    /// The TCP payload of every connection this runner's transfers closed (socket_ledger.c).
    /// Freed with the runner unless a transfer was ended on a thread of its own, whose
    /// connection may close after the runner is gone: then its few bytes stay allocated.
    private let socketLedger: OpaquePointer?
    private var ledgerHandedOver = false
    /// TLS sessions resumed from round to round (`watch`); never connections. Dropped when
    /// the trust they were verified against changes (`TLSSessions.trustStamp`).
    private var sessions: TLSSessions
    private var sessionsTrust: [Int] = []

    /// Running totals of the TCP payload this runner's connections carried, from its start.
    public var wireBytes: WireBytes {
        guard let socketLedger else { return WireBytes() }
        return WireBytes(tcpSent: Int(netprobe_socket_ledger_sent(socketLedger)),
                         tcpReceived: Int(netprobe_socket_ledger_received(socketLedger)))
    }

    /// The ICMP errors routers sent about this runner's connections since the last call
    /// (socket_ledger.c reads each socket's error queue as it closes), oldest first.
    public func takeRouterErrors() -> [RouterError] {
        guard let socketLedger else { return [] }
        var kept = [netprobe_router_error](repeating: netprobe_router_error(), count: 16)
        let count = kept.withUnsafeMutableBufferPointer { buffer in
            netprobe_socket_ledger_take_router_errors(socketLedger, buffer.baseAddress, buffer.count)
        }
        /// A NUL-terminated C character array (imported as a tuple) as text.
        func text<Characters>(_ characters: Characters) -> String {
            withUnsafeBytes(of: characters) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
        }
        return kept.prefix(count).map { error in
            let interface = text(error.interface)
            return RouterError(router: text(error.router), family: error.family == AF_INET6 ? .ipv6 : .ipv4,
                               icmpType: error.type, code: error.code, interface: interface.isEmpty ? nil : interface)
        }
    }

    /// Called from `onResult` during `run`: the named transfers, if still running at `instant`,
    /// end then and are reported with `error` (through `onResult`, like any result). A later
    /// call for the same name replaces the earlier one: the caller's latest decision holds.
    /// Lets a caller whose answer is decided stop what it no longer needs (`cancelledError`),
    /// or give a transfer a bounded grace of its own (a time-out of its own making).
    public func end(_ names: Set<String>, at instant: ContinuousClock.Instant, with error: TransportError) {
        for name in names { cutoffs[name] = (instant, error) }
    }

    /// Per request name: when a held request starts (`ProbeRequest.held`).
    private var releases: [String: ContinuousClock.Instant] = [:]

    /// Before or during `run` (from `onResult`): the named held requests start at `instant`,
    /// unless ended (`end`) by then. A later call for the same name replaces the earlier one.
    public func release(_ names: Set<String>, at instant: ContinuousClock.Instant) {
        for name in names { releases[name] = instant }
    }

    /// Initialises libcurl for the process (once, whoever comes first) and creates the multi handle.
    public init() throws(HTTPError) {
        library = try CurlGlobal.ensureInitialized()
        guard let multi = Self.makeMulti() else { throw .multiInitFailed }
        self.firstMulti = multi
        socketLedger = netprobe_socket_ledger_new()
        sessions = TLSSessions()  // after the load: it calls into libcurl
    }

    /// Sets its transfers' options as for `library`, whatever libcurl is loaded: the tests
    /// run an older libcurl's choices (no CURLOPT_PROTOCOLS_STR, no CURLOPT_QUICK_EXIT) on this one.
    init(actingAs library: CurlLibrary) throws(HTTPError) {
        try CurlGlobal.ensureInitialized()
        guard let multi = Self.makeMulti() else { throw .multiInitFailed }
        self.firstMulti = multi
        self.library = library
        socketLedger = netprobe_socket_ledger_new()
        sessions = TLSSessions()  // after the load: it calls into libcurl
    }

    deinit {
        if let firstMulti { netprobe_multi_cleanup(firstMulti) }
        if !ledgerHandedOver { netprobe_socket_ledger_free(socketLedger) }
    }

    private static func makeMulti() -> UnsafeMutableRawPointer? {
        guard let multi = netprobe_multi_init() else { return nil }
        // Each probe must prove its own path: never multiplex it onto another probe's connection.
        _ = netprobe_multi_setopt_long(multi, CURLMOPT_PIPELINING, Int(CURLPIPE_NOTHING))
        return multi
    }

    /// Runs all requests concurrently on libcurl's multi interface.
    ///
    /// Calls `onResult` for each transfer as it finishes (completion order), including
    /// transfers ended by the deadline. If `onResult` returns false it is never called
    /// again: every transfer still running is removed at once and reported with
    /// transport error kind `.cancelled` (requests not yet started likewise); transfers
    /// that had already finished keep their real result. Transfers still running at
    /// `deadline` end with kind `.timeout`.
    ///
    /// - Returns: every observation, in request order.
    public func run(
        _ requests: [ProbeRequest], deadline: ContinuousClock.Instant, onResult: (ProbeObservation) -> Bool
    ) -> [ProbeObservation] {
        precondition(!isRunning, "ProbeRunner.run is not reentrant")
        isRunning = true
        cutoffs = [:]
        defer {
            isRunning = false
            cutoffs = [:]
            releases = [:]
        }
        let runStarted = ContinuousClock.now
        let trustNow = TLSSessions.trustStamp(requests)
        if trustNow != sessionsTrust {
            sessions = TLSSessions()
            sessionsTrust = trustNow
        }

        var results = [ProbeObservation?](repeating: nil, count: requests.count)
        // In request order. A round has a few dozen transfers at most: a scan finds one sooner
        // than a dictionary's first use costs (its storage type is built at run time).
        var active: [Transfer] = []
        var listening = true  // onResult has not said "enough" yet
        let trust = TrustShares()
        defer { sharedTrustHandshakes = trust.reuses }
        let multi = firstMulti ?? Self.makeMulti()
        firstMulti = nil

        // Transfers ended while their name lookup ran, on a libcurl that would wait for it
        // (Transfer.endingWouldWait): they stay in the multi handle, ended with it after the round.
        var lingering: [Transfer] = []
        func end(_ transfer: Transfer) {
            if transfer.endingWouldWait { lingering.append(transfer) } else { transfer.detach() }
        }

        func finish(_ index: Int, _ observation: ProbeObservation) {
            results[index] = observation
            if listening { listening = onResult(observation) }
        }

        // Held requests (later waves), in request order, until released or ended.
        var held: [Int] = []
        func start(_ index: Int) {
            let request = requests[index]
            guard let multi else {
                finish(index, Self.unsent(request, Self.internalError("curl_multi_init failed")))
                return
            }
            if !listening {
                results[index] = Self.unsent(request, Self.cancelledError)
                return
            }
            let leftMs = (deadline - .now).inMilliseconds
            guard leftMs >= 1 else {
                finish(index, Self.unsent(request, Self.deadlineError))
                return
            }
            do {
                // A later wave ends when the first would have: its limit counts from the round's start.
                let spentMs = (ContinuousClock.now - runStarted).inMilliseconds
                let limitMs = min(Self.probeLimitMs(request.timeout) - spentMs, leftMs).rounded(.up)
                guard limitMs >= 1 else {
                    finish(index, Self.unsent(request, Self.deadlineError))
                    return
                }
                let transfer = try Transfer(index: index, request: request, timeLimitMs: Int(limitMs), trust: trust,
                                            library: library, wire: socketLedger, sessions: sessions)
                if transfer.attach(to: multi) {
                    active.append(transfer)
                } else {
                    finish(index, transfer.observation(endedWith: Self.internalError("curl_multi_add_handle failed")))
                }
            } catch {
                finish(index, Self.unsent(request, TransportError(kind: .other, code: Int(error.code), message: error.message)))
            }
        }
        for index in requests.indices {
            if requests[index].held { held.append(index) } else { start(index) }
        }
        /// Held requests whose cut-off or release has come: ended unsent, or started.
        func releaseDue() {
            guard !held.isEmpty else { return }
            let now = ContinuousClock.now
            for index in held {
                let name = requests[index].name
                if let cutoff = cutoffs[name], cutoff.instant <= now {
                    held.removeAll { $0 == index }
                    finish(index, Self.unsent(requests[index], cutoff.error))
                } else if let release = releases[name], release <= now {
                    held.removeAll { $0 == index }
                    start(index)
                }
            }
        }

        var failure: TransportError?
        while let multi, (!active.isEmpty || held.contains { releases[requests[$0].name] != nil || cutoffs[requests[$0].name] != nil })
            && listening {
            releaseDue()
            var stillRunning: Int32 = 0
            let performed = netprobe_multi_perform(multi, &stillRunning)
            // Connections that completed their handshake in this round stop ending on ICMP errors.
            netprobe_socket_ledger_settle(socketLedger)
            guard performed == CURLM_OK else {
                failure = Self.multiError("curl_multi_perform", performed)
                break
            }
            // Drain every finished transfer, even after onResult said stop: those are real results.
            var queued: Int32 = 0
            while let message = netprobe_multi_info_read(multi, &queued) {
                guard message.pointee.msg == CURLMSG_DONE, let easy = message.pointee.easy_handle,
                    let position = active.firstIndex(where: { $0.handle == easy })
                else { continue }
                let transfer = active.remove(at: position)
                let result = netprobe_msg_result(message)  // read before detach frees the message
                transfer.detach()
                finish(transfer.index, transfer.observation(result: result))
            }
            // Transfers whose cut-off has come end now, in request order.
            let now = ContinuousClock.now
            for transfer in active where cutoffs[transfer.request.name] == nil {
                if Self.resolveDue(transfer, now: now, since: runStarted) {
                    cutoffs[transfer.request.name] = (now, Self.unresolvedError(after: transfer.request.resolveWithin ?? 0))
                } else if let ownDeadline = transfer.ownDeadline, ownDeadline <= now {
                    cutoffs[transfer.request.name] = (now, transfer.timedOutError)
                }
            }
            let isDue = { (transfer: Transfer) in self.cutoffs[transfer.request.name].map { $0.instant <= now } ?? false }
            // Nothing is cut off until an answer decides something: most wake-ups look once.
            let due = cutoffs.isEmpty ? [] : active.filter(isDue)
            if !due.isEmpty { active.removeAll(where: isDue) }
            for transfer in due {
                end(transfer)
                finish(transfer.index, transfer.observation(endedWith: cutoffs[transfer.request.name]!.error))
            }
            releaseDue()
            let leftMs = (deadline - .now).inMilliseconds
            let waiting = held.compactMap { [releases[requests[$0].name], cutoffs[requests[$0].name]?.instant].compactMap { $0 }.min() }
            guard !active.isEmpty || !waiting.isEmpty, listening, leftMs > 0 else { break }
            let nextCutoff = (active.compactMap { transfer in
                [cutoffs[transfer.request.name]?.instant ?? Self.pendingResolveCutoff(transfer, since: runStarted), transfer.ownDeadline]
                    .compactMap { $0 }.min()
            } + waiting).min()
            let cutoffMs = nextCutoff.map { ($0 - .now).inMilliseconds } ?? leftMs
            // libcurl shortens the wait itself when one of its own timers is due sooner.
            let polled = netprobe_multi_poll(multi, nil, 0, Int32(max(0, min(1000, min(leftMs, cutoffMs))).rounded(.up)), nil)
            guard polled == CURLM_OK else {
                failure = Self.multiError("curl_multi_poll", polled)
                break
            }
        }

        // Whatever is left is ended here, in request order so reports are stable.
        let ending = failure ?? (listening ? Self.deadlineError : Self.cancelledError)
        for transfer in active {
            end(transfer)
            let observation = transfer.observation(endedWith: ending)
            if ending.kind == .cancelled {
                results[transfer.index] = observation
            } else {
                finish(transfer.index, observation)
            }
        }
        active.removeAll()
        // Held requests never released were not needed: never sent.
        for index in held {
            results[index] = Self.unsent(requests[index], Self.cancelledError)
        }
        if let multi {
            if lingering.isEmpty {
                netprobe_multi_cleanup(multi)
            } else {
                ledgerHandedOver = true
                Transfer.endLater(lingering, multi: multi)
            }
        }
        return zip(requests, results).map { request, result in result ?? Self.unsent(request, Self.cancelledError) }
    }

    // MARK: - Helpers

    /// When a transfer with `resolveWithin` must have resolved its host: counted from the
    /// round's start, not the transfer's. Every probe asks the same configured resolvers, so a
    /// later wave sent while they were still silent gets no patience of its own; otherwise the
    /// hedge's probes would hold a blocked resolver's answer back by the hedge's delay.
    private static func resolveCutoff(_ transfer: Transfer, since roundStart: ContinuousClock.Instant) -> ContinuousClock.Instant? {
        guard let seconds = transfer.request.resolveWithin else { return nil }
        return min(transfer.started, roundStart) + .milliseconds(Int64(seconds * 1000))
    }

    /// The resolve deadline of a transfer whose host has not resolved yet.
    private static func pendingResolveCutoff(_ transfer: Transfer, since roundStart: ContinuousClock.Instant) -> ContinuousClock.Instant? {
        guard let cutoff = resolveCutoff(transfer, since: roundStart), !transfer.hasResolved else { return nil }
        return cutoff
    }

    /// Its resolve deadline has come and the system resolver has not answered yet.
    private static func resolveDue(_ transfer: Transfer, now: ContinuousClock.Instant, since roundStart: ContinuousClock.Instant) -> Bool {
        guard let cutoff = pendingResolveCutoff(transfer, since: roundStart) else { return false }
        return cutoff <= now
    }

    /// The configured resolvers gave no answer in time: a DNS failure of its own making.
    static func unresolvedError(after seconds: Double) -> TransportError {
        TransportError(kind: .dns, code: Int(CURLE_COULDNT_RESOLVE_HOST.rawValue),
                       message: "the configured resolvers gave no answer within \(seconds == seconds.rounded() ? String(Int(seconds)) : String(seconds)) s")
    }

    /// The per-probe limit in milliseconds; a missing or nonsensical one leaves only the deadline.
    private static func probeLimitMs(_ seconds: Double) -> Double {
        guard seconds.isFinite, seconds > 0 else { return Double(Int32.max) }
        return min(seconds * 1000, Double(Int32.max))
    }

    /// Codes are CURLcodes that say the same thing, so debugging output stays in one vocabulary.
    static let deadlineError = TransportError(
        kind: .timeout, code: Int(CURLE_OPERATION_TIMEDOUT.rawValue),
        message: "the overall deadline passed before the transfer finished")
    public static let cancelledError = TransportError(
        kind: .cancelled, code: Int(CURLE_ABORTED_BY_CALLBACK.rawValue),
        message: "cancelled: the verdict was already decided")

    private static func internalError(_ message: String) -> TransportError {
        TransportError(kind: .other, code: Int(CURLE_FAILED_INIT.rawValue), message: message)
    }

    private static func multiError(_ call: String, _ code: CURLMcode) -> TransportError {
        internalError("\(call) failed: \(String(cString: netprobe_multi_strerror(code)))")
    }

    private static func unsent(_ request: ProbeRequest, _ error: TransportError) -> ProbeObservation {
        ProbeObservation(name: request.name, url: request.url, transportError: error, proxy: request.proxy?.redacted)
    }
}
