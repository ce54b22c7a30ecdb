import CCurl
import NetprobeWire
import NetprobeVerdict
import NetprobeSystem

/// A failed curl_easy_setopt while preparing a transfer: reported as that probe's error.
struct TransferSetupError: Error {
    var code: UInt32
    var message: String
}

/// One libcurl easy handle plus everything it points at (header list, error buffer,
/// callback context). Owning them together means one deinit frees them all, in the
/// order libcurl requires (detach from the multi, then clean up the handle, then its data).
final class Transfer {
    static let receiveBufferBytes = 4096
    /// Sent with every probe unless the request's own headers replace it.
    static let userAgent = "netprobe/0.1"

    let index: Int
    let request: ProbeRequest
    let handle: UnsafeMutableRawPointer
    /// Created just before it is handed to the multi handle: the clock for transfers we end ourselves.
    let started: ContinuousClock.Instant
    /// On a libcurl without CURLOPT_QUICK_EXIT, when the runner ends this transfer itself: at
    /// its time limit, while libcurl's own limit is set `ownDeadlineLeadMs` later. libcurl
    /// ending a transfer during its name lookup waits for the lookup; the runner ending it
    /// does not (`endingWouldWait`). nil where libcurl can end it at once.
    let ownDeadline: ContinuousClock.Instant?
    static let ownDeadlineLeadMs = 2000
    /// The libcurl loaded, named in every error and deciding which options are set.
    private let library: CurlLibrary
    private let collector: ResponseCollector
    private let errorBuffer: UnsafeMutablePointer<CChar>
    private var headerList: UnsafeMutablePointer<curl_slist>?
    private var resolveList: UnsafeMutablePointer<curl_slist>?
    private var multi: UnsafeMutableRawPointer?
    /// The handle and its lists went to `endLater`, which ends them: deinit must not.
    private var handedOver = false

    /// `trust`: the round's shared certificate stores, for transfers that trust a hashed directory.
    /// `wire`: where its connections' TCP payload is counted as they close (nil: not counted).
    init(index: Int, request: ProbeRequest, timeLimitMs: Int, trust: TrustShares?,
         library: CurlLibrary, wire: OpaquePointer? = nil, sessions: TLSSessions? = nil) throws(TransferSetupError) {
        guard let handle = netprobe_easy_init() else {
            throw TransferSetupError(code: CURLE_FAILED_INIT.rawValue, message: "curl_easy_init failed")
        }
        self.index = index
        self.request = request
        self.handle = handle
        self.started = .now
        self.ownDeadline = library.hasQuickExit ? nil : started + .milliseconds(timeLimitMs)
        self.library = library
        self.collector = ResponseCollector(maxBodyBytes: request.maxBodyBytes)
        self.errorBuffer = .allocate(capacity: Int(CURL_ERROR_SIZE) + 1)
        errorBuffer.initialize(repeating: 0, count: Int(CURL_ERROR_SIZE) + 1)
        try configure(timeLimitMs: ownDeadline == nil ? timeLimitMs : timeLimitMs + Self.ownDeadlineLeadMs, trust: trust)
        if let wire {
            try check(netprobe_easy_keep_ledger(handle, wire), "CURLOPT_CLOSESOCKETFUNCTION")
        }
        // Resumed TLS sessions save the certificate chain on every re-check; without a share
        // each handshake is simply a full one.
        if usesTLS, let sessions {
            _ = sessions.attach(handle)
        }
    }

    deinit {
        defer { errorBuffer.deallocate() }
        guard !handedOver else { return }
        detach()
        netprobe_easy_cleanup(handle)
        netprobe_slist_free_all(headerList)
        netprobe_slist_free_all(resolveList)
    }

    var collectedHeaders: [(name: String, value: String)] { collector.headers }
    var collectedBody: [UInt8] { collector.body }
    var bodyWasTruncated: Bool { collector.bodyTruncated }
    /// libcurl's own description of the failure (CURLOPT_ERRORBUFFER), empty if it wrote none.
    var curlErrorText: String { String(cString: errorBuffer) }

    func attach(to multi: UnsafeMutableRawPointer) -> Bool {
        guard netprobe_multi_add_handle(multi, handle) == CURLM_OK else { return false }
        self.multi = multi
        return true
    }

    func detach() {
        guard let multi else { return }
        netprobe_multi_remove_handle(multi, handle)
        self.multi = nil
    }

    /// Ending this transfer now would wait for its name lookup: a libcurl without
    /// CURLOPT_QUICK_EXIT joins the resolver thread of a lookup still running
    /// (end_later.c). Such a transfer stays in its multi handle, for `endLater`.
    var endingWouldWait: Bool {
        multi != nil && !library.hasQuickExit && !lookupIsOver
    }

    /// The name lookup is over: the host resolved, or a connection was made (a numeric host is
    /// looked up in under a microsecond, which libcurl reports as no lookup time at all).
    private var lookupIsOver: Bool {
        var connected: curl_off_t = 0
        return hasResolved
            || (netprobe_easy_getinfo_off_t(handle, CURLINFO_CONNECT_TIME_T, &connected) == CURLE_OK && connected > 0)
    }

    /// The error of a transfer the runner ended at `ownDeadline`, in libcurl's words for its own.
    var timedOutError: TransportError {
        let limitMs = ownDeadline.map { ($0 - started).inMilliseconds } ?? 0
        return TransportError(kind: .timeout, code: Int(CURLE_OPERATION_TIMEDOUT.rawValue),
                              message: "\(lookupIsOver ? "Operation" : "Resolving") timed out after \(Int(limitMs)) milliseconds")
    }

    /// Ends `multi` and `transfers`, still in it, on a thread of their own (end_later.c):
    /// nothing here waits for their name lookups. The transfers are left with nothing to end.
    static func endLater(_ transfers: [Transfer], multi: UnsafeMutableRawPointer) {
        guard let ending = netprobe_ending_new(multi, transfers.count) else {
            // Out of memory: ended here, waiting if need be.
            for transfer in transfers { transfer.detach() }
            netprobe_multi_cleanup(multi)
            return
        }
        for transfer in transfers {
            // libcurl may describe the end of the lookup in the error buffer, which is ours.
            _ = netprobe_easy_setopt_pointer(transfer.handle, CURLOPT_ERRORBUFFER, nil)
            netprobe_ending_add(ending, transfer.handle, transfer.headerList, transfer.resolveList)
            transfer.handedOver = true
            transfer.multi = nil
        }
        netprobe_ending_start(ending)
    }

    // MARK: - Options

    private func configure(timeLimitMs: Int, trust: TrustShares?) throws(TransferSetupError) {
        try set(CURLOPT_URL, request.url)
        // Only plain HTTP(S), never another scheme, and never a redirect: a redirect is the portal
        // speaking. The same restriction in the form the libcurl found knows.
        if library.hasProtocolsString {
            try set(NETPROBE_CURLOPT_PROTOCOLS_STR, "http,https")
            try set(NETPROBE_CURLOPT_REDIR_PROTOCOLS_STR, "http,https")
        } else {
            try set(NETPROBE_CURLOPT_PROTOCOLS, Self.httpAndHTTPS)
            try set(NETPROBE_CURLOPT_REDIR_PROTOCOLS, Self.httpAndHTTPS)
        }
        try set(CURLOPT_FOLLOWLOCATION, 0)
        try set(CURLOPT_HTTPGET, 1)
        try set(CURLOPT_HTTP09_ALLOWED, 0)
        // Signals would be process-wide side effects; the threaded resolver does not need them.
        try set(CURLOPT_NOSIGNAL, 1)
        // Without this, cleanup waits for the resolver thread: a black-holed DNS server
        // would hold the command for the resolver's own retries, past our deadline. Older
        // libcurl has no such option: there the runner ends such transfers itself
        // (`ownDeadline`, `endingWouldWait`).
        if library.hasQuickExit {
            try set(NETPROBE_CURLOPT_QUICK_EXIT, 1)
        }
        try setProxy()
        // Every probe proves its own connection and its own name lookup; nothing carried over.
        try set(CURLOPT_FRESH_CONNECT, 1)
        try set(CURLOPT_FORBID_REUSE, 1)
        try set(CURLOPT_DNS_CACHE_TIMEOUT, 0)
        try set(CURLOPT_TIMEOUT_MS, timeLimitMs)
        // Probe answers are small (a body cap of 64 KiB by default): a 4 KiB receive buffer
        // instead of libcurl's 16 KiB keeps 64 probes about 0.8 MB lighter.
        try set(CURLOPT_BUFFERSIZE, Self.receiveBufferBytes)
        try set(CURLOPT_CONNECTTIMEOUT_MS, timeLimitMs)
        try set(CURLOPT_USERAGENT, Self.userAgent)
        try check(netprobe_easy_probe_socket_options(handle), "CURLOPT_SOCKOPTFUNCTION")
        if let interface = request.interface {
            try set(CURLOPT_INTERFACE, "if!" + interface)
        }
        if let family = request.family {
            try set(CURLOPT_IPRESOLVE, family == .ipv4 ? Int(CURL_IPRESOLVE_V4) : Int(CURL_IPRESOLVE_V6))
        }
        // Plain HTTP to the server and the proxy checks no certificate: then the certificate
        // directory is not even listed (SystemTrust reads it on first use).
        if usesTLS {
            try setTrust(sharing: trust)
        }
        try setHeaders()
        if !request.pinnedAddresses.isEmpty {
            try pinAddresses()
        }
        try check(netprobe_easy_setopt_pointer(handle, CURLOPT_ERRORBUFFER, errorBuffer), "CURLOPT_ERRORBUFFER")
        try setCallbacks()
    }

    /// The proxy was chosen by the caller (ProxySettings, curl's rules); libcurl must not
    /// choose again. "" disables proxies even with http_proxy & co. set; with a proxy,
    /// NOPROXY "" stops libcurl from still applying NO_PROXY from the environment.
    /// An https URL through an http proxy is tunnelled with CONNECT by libcurl itself;
    /// an http URL is sent to the proxy as an absolute-URI GET, which is what lets a
    /// guest network's proxy answer with its portal, as it does for every program.
    /// CONNECT's answer reaches the header callback (a 407's realm is read there); the
    /// collector starts over at the real response's status line.
    private func setProxy() throws(TransferSetupError) {
        guard let proxy = request.proxy else {
            try set(CURLOPT_PROXY, "")
            return
        }
        try set(CURLOPT_PROXY, proxy.url)
        try set(CURLOPT_NOPROXY, "")
    }

    /// Defeat caches between us and the server; the caller's headers win over these defaults.
    /// `Connection: close` says what FORBID_REUSE does anyway: the server closes right after its
    /// answer, its FIN riding with it, one packet fewer per probe than our closing first.
    private func setHeaders() throws(TransferSetupError) {
        let defaults = ["Cache-Control: no-cache", "Pragma: no-cache", "Connection: close"]
        var lines = defaults
        if !request.extraHeaders.isEmpty {
            let overridden = Set(request.extraHeaders.map(Self.headerName))
            lines = defaults.filter { !overridden.contains(Self.headerName($0)) } + request.extraHeaders
        }
        for line in lines {
            guard let appended = netprobe_slist_append(headerList, line) else {
                throw TransferSetupError(code: CURLE_OUT_OF_MEMORY.rawValue, message: "curl_slist_append failed")
            }
            headerList = appended
        }
        try check(netprobe_easy_setopt_slist(handle, CURLOPT_HTTPHEADER, headerList), "CURLOPT_HTTPHEADER")
    }

    /// "HOST:PORT:ADDR,ADDR": libcurl connects there without asking the system resolver.
    private func pinAddresses() throws(TransferSetupError) {
        guard let target = URLSyntax.hostAndPort(request.url) else { return }
        let addresses = request.pinnedAddresses.map { $0.contains(":") ? "[\($0)]" : $0 }.joined(separator: ",")
        guard let list = netprobe_slist_append(nil, "\(target.host):\(target.port):\(addresses)") else {
            throw TransferSetupError(code: CURLE_OUT_OF_MEMORY.rawValue, message: "curl_slist_append failed")
        }
        resolveList = list
        try check(netprobe_easy_setopt_slist(handle, CURLOPT_RESOLVE, resolveList), "CURLOPT_RESOLVE")
    }

    /// The host has resolved (libcurl's name lookup time is set once it has).
    var hasResolved: Bool {
        var value: curl_off_t = 0
        return netprobe_easy_getinfo_off_t(handle, CURLINFO_NAMELOOKUP_TIME_T, &value) == CURLE_OK && value > 0
    }

    private static func headerName(_ line: String) -> String {
        String(line.prefix { $0 != ":" && $0 != ";" }).trimmingSpacesAndTabs.lowercased()
    }

    /// The callbacks cannot capture, so the collector travels as an unretained pointer;
    /// `self` keeps it alive for as long as libcurl can call back.
    private func setCallbacks() throws(TransferSetupError) {
        let context = Unmanaged.passUnretained(collector).toOpaque()
        try check(netprobe_easy_setopt_write_callback(handle, CURLOPT_WRITEFUNCTION) { data, size, count, context in
            let length = size * count
            guard let data, let context else { return length }
            let collector = Unmanaged<ResponseCollector>.fromOpaque(context).takeUnretainedValue()
            // Returning a short count makes libcurl stop with CURLE_WRITE_ERROR: our "enough".
            return collector.appendBody(UnsafeRawBufferPointer(start: data, count: length)) ? length : 0
        }, "CURLOPT_WRITEFUNCTION")
        try check(netprobe_easy_setopt_pointer(handle, CURLOPT_WRITEDATA, context), "CURLOPT_WRITEDATA")
        try check(netprobe_easy_setopt_write_callback(handle, CURLOPT_HEADERFUNCTION) { data, size, count, context in
            let length = size * count
            guard let data, let context else { return length }
            let collector = Unmanaged<ResponseCollector>.fromOpaque(context).takeUnretainedValue()
            collector.receiveHeaderLine(UnsafeRawBufferPointer(start: data, count: length))
            return length
        }, "CURLOPT_HEADERFUNCTION")
        try check(netprobe_easy_setopt_pointer(handle, CURLOPT_HEADERDATA, context), "CURLOPT_HEADERDATA")
    }

    private func set(_ option: CURLoption, _ value: Int) throws(TransferSetupError) {
        try check(netprobe_easy_setopt_long(handle, option, value), Self.name(of: option))
    }

    private func set(_ option: CURLoption, _ value: String) throws(TransferSetupError) {
        // C would silently cut the string at a NUL; refuse instead of probing something else.
        guard !value.utf8.contains(0) else {
            throw TransferSetupError(code: CURLE_BAD_FUNCTION_ARGUMENT.rawValue, message: "NUL byte in option \(option.rawValue) for \(request.name)")
        }
        try check(netprobe_easy_setopt_string(handle, option, value), Self.name(of: option))
    }

    /// TLS anywhere on the way: an https URL (directly or through a CONNECT tunnel) or an
    /// https proxy.
    private var usesTLS: Bool {
        ProbeSpec.isHTTPS(request.url) || request.proxy?.scheme == .https
    }

    private func setTrust(sharing trust: TrustShares?) throws(TransferSetupError) {
        // Every TLS context closes quietly (tls_contexts.c says why); one trusting the hashed
        // directory also shares the round's store, when it can.
        var shared = false
        defer { if !shared { _ = netprobe_easy_tls_contexts(handle, nil) } }
        if let caBundle = request.caBundle {
            // The bundle alone, "instead of the system's": Debian's libcurl also has a built-in
            // CAPATH (/etc/ssl/certs) that would otherwise be trusted beside it. Without a CAPATH,
            // libcurl builds the bundle's store once per multi handle, so once per round.
            try set(CURLOPT_CAINFO, caBundle)
            try check(netprobe_easy_setopt_pointer(handle, CURLOPT_CAPATH, nil), "CURLOPT_CAPATH")
        } else if let directory = request.caDirectory ?? SystemTrust.hashedDirectory {
            // The hashed directory alone: NULL CAINFO keeps libcurl from also loading its whole bundle.
            try set(CURLOPT_CAPATH, directory)
            try check(netprobe_easy_setopt_pointer(handle, CURLOPT_CAINFO, nil), "CURLOPT_CAINFO")
            // Not through an https proxy: the context callback would also see the proxy's TLS,
            // whose trust is libcurl's default, not this directory.
            if request.proxy?.scheme != .https, let trust {
                shared = trust.attach(handle, directory: directory)
            }
        }
    }

    /// The name of an option `set` takes, for its error message: what is missing, in libcurl's words.
    private static func name(of option: CURLoption) -> String {
        let names: [(CURLoption, String)] = [
            (CURLOPT_URL, "CURLOPT_URL"), (NETPROBE_CURLOPT_PROTOCOLS_STR, "CURLOPT_PROTOCOLS_STR"),
            (NETPROBE_CURLOPT_REDIR_PROTOCOLS_STR, "CURLOPT_REDIR_PROTOCOLS_STR"),
            (NETPROBE_CURLOPT_PROTOCOLS, "CURLOPT_PROTOCOLS"), (NETPROBE_CURLOPT_REDIR_PROTOCOLS, "CURLOPT_REDIR_PROTOCOLS"),
            (CURLOPT_FOLLOWLOCATION, "CURLOPT_FOLLOWLOCATION"), (CURLOPT_HTTPGET, "CURLOPT_HTTPGET"),
            (CURLOPT_HTTP09_ALLOWED, "CURLOPT_HTTP09_ALLOWED"), (CURLOPT_NOSIGNAL, "CURLOPT_NOSIGNAL"),
            (NETPROBE_CURLOPT_QUICK_EXIT, "CURLOPT_QUICK_EXIT"), (CURLOPT_FRESH_CONNECT, "CURLOPT_FRESH_CONNECT"),
            (CURLOPT_FORBID_REUSE, "CURLOPT_FORBID_REUSE"), (CURLOPT_DNS_CACHE_TIMEOUT, "CURLOPT_DNS_CACHE_TIMEOUT"),
            (CURLOPT_TIMEOUT_MS, "CURLOPT_TIMEOUT_MS"), (CURLOPT_BUFFERSIZE, "CURLOPT_BUFFERSIZE"),
            (CURLOPT_CONNECTTIMEOUT_MS, "CURLOPT_CONNECTTIMEOUT_MS"), (CURLOPT_USERAGENT, "CURLOPT_USERAGENT"),
            (CURLOPT_INTERFACE, "CURLOPT_INTERFACE"), (CURLOPT_IPRESOLVE, "CURLOPT_IPRESOLVE"),
            (CURLOPT_PROXY, "CURLOPT_PROXY"), (CURLOPT_NOPROXY, "CURLOPT_NOPROXY"),
            (CURLOPT_CAINFO, "CURLOPT_CAINFO"), (CURLOPT_CAPATH, "CURLOPT_CAPATH"),
        ]
        return names.first { $0.0 == option }?.1 ?? "option \(option.rawValue)"
    }

    /// CURLOPT_PROTOCOLS' bit mask for the same restriction as "http,https".
    private static let httpAndHTTPS = Int(CURLPROTO_HTTP | CURLPROTO_HTTPS)

    /// `what` is only built on failure: a transfer sets about fifteen options. The message
    /// names the libcurl found, whose version decides what it knows.
    private func check(_ code: CURLcode, _ what: @autoclosure () -> String) throws(TransferSetupError) {
        guard code != CURLE_OK else { return }
        let text = String(cString: netprobe_easy_strerror(code))
        throw TransferSetupError(code: code.rawValue, message: "could not set \(what()) for \(request.url): \(text) (\(library))")
    }
}

