import CCurl

/// libcurl wants curl_global_init called once per process before any other call,
/// and it is not thread-safe in every build. A global `let` is initialised
/// exactly once, lazily and atomically (swift_once), which is the guarantee we need.
/// We never call curl_global_cleanup: the process exit releases everything, and
/// cleaning up while another runner might start would be a race.
private let globalInitCode: UInt32 = netprobe_curl_global_init().rawValue

enum CurlGlobal {
    /// Initialises libcurl on first call; later calls return the first call's outcome.
    static func ensureInitialized() throws(HTTPError) {
        let code = globalInitCode
        guard code != CURLE_OK.rawValue else { return }
        throw .globalInitFailed(code: Int(code), message: String(cString: curl_easy_strerror(CURLcode(rawValue: code))))
    }
}
