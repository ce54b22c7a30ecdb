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

    static func makeMulti() -> UnsafeMutableRawPointer? {
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
        let trust = TrustShares()
        defer { sharedTrustHandshakes = trust.reuses }
        let multi = firstMulti ?? Self.makeMulti()
        firstMulti = nil
        return withoutActuallyEscaping(onResult) { onResult in
            let round = TransferRound(runner: self, requests: requests, deadline: deadline, started: runStarted,
                                      multi: multi, trust: trust, onResult: onResult)
            round.startFirstWave()
            round.drive()
            return round.wrapUp()
        }
    }

    /// What a round's transfers need of the runner, which outlives the round: the options they
    /// are made with, and what `end` and `release` set while the round runs.
    var roundSetting: (library: CurlLibrary, ledger: OpaquePointer?, sessions: TLSSessions) {
        (library, socketLedger, sessions)
    }

    func cutoff(_ name: String) -> (instant: ContinuousClock.Instant, error: TransportError)? { cutoffs[name] }
    func setCutoff(_ name: String, _ cutoff: (instant: ContinuousClock.Instant, error: TransportError)) { cutoffs[name] = cutoff }
    var hasCutoffs: Bool { !cutoffs.isEmpty }
    func releaseTime(_ name: String) -> ContinuousClock.Instant? { releases[name] }

    /// A transfer ended on a thread of its own may close its connection after the runner is
    /// gone: the ledger it counts into is then never freed.
    func handOverLedger() { ledgerHandedOver = true }

    // MARK: - Helpers

    /// When a transfer with `resolveWithin` must have resolved its host: counted from the
    /// round's start, not the transfer's. Every probe asks the same configured resolvers, so a
    /// later wave sent while they were still silent gets no patience of its own; otherwise the
    /// hedge's probes would hold a blocked resolver's answer back by the hedge's delay.
    static func resolveCutoff(_ transfer: Transfer, since roundStart: ContinuousClock.Instant) -> ContinuousClock.Instant? {
        guard let seconds = transfer.request.resolveWithin else { return nil }
        return min(transfer.started, roundStart) + .milliseconds(Int64(seconds * 1000))
    }

    /// The resolve deadline of a transfer whose host has not resolved yet.
    static func pendingResolveCutoff(_ transfer: Transfer, since roundStart: ContinuousClock.Instant) -> ContinuousClock.Instant? {
        guard let cutoff = resolveCutoff(transfer, since: roundStart), !transfer.hasResolved else { return nil }
        return cutoff
    }

    /// Its resolve deadline has come and the system resolver has not answered yet.
    static func resolveDue(_ transfer: Transfer, now: ContinuousClock.Instant, since roundStart: ContinuousClock.Instant) -> Bool {
        guard let cutoff = pendingResolveCutoff(transfer, since: roundStart) else { return false }
        return cutoff <= now
    }

    /// The configured resolvers gave no answer in time: a DNS failure of its own making.
    static func unresolvedError(after seconds: Double) -> TransportError {
        TransportError(kind: .dns, code: Int(CURLE_COULDNT_RESOLVE_HOST.rawValue),
                       message: "the configured resolvers gave no answer within \(seconds == seconds.rounded() ? String(Int(seconds)) : String(seconds)) s")
    }

    /// The per-probe limit in milliseconds; a missing or nonsensical one leaves only the deadline.
    static func probeLimitMs(_ seconds: Double) -> Double {
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

    static func internalError(_ message: String) -> TransportError {
        TransportError(kind: .other, code: Int(CURLE_FAILED_INIT.rawValue), message: message)
    }

    static func multiError(_ call: String, _ code: CURLMcode) -> TransportError {
        internalError("\(call) failed: \(String(cString: netprobe_multi_strerror(code)))")
    }

    static func unsent(_ request: ProbeRequest, _ error: TransportError) -> ProbeObservation {
        ProbeObservation(name: request.name, url: request.url, transportError: error, proxy: request.proxy?.redacted)
    }
}
