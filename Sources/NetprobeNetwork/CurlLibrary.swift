import CCurl

/// The libcurl found at run time, as it says itself (curl_version_info, read right after the
/// load). netprobe uses a newer option only where this version has it, and the older
/// equivalent otherwise; a missing optional option never fails a check.
///
/// Every option a transfer sets, and the first libcurl that has it (netprobe loads 7.66.0 or
/// newer: `curl_multi_poll`; the loader refuses older ones and says which it found):
///
/// | option | since | netprobe |
/// |---|---|---|
/// | CURLOPT_PROTOCOLS_STR, CURLOPT_REDIR_PROTOCOLS_STR | 7.85.0 | where present |
/// | CURLOPT_PROTOCOLS, CURLOPT_REDIR_PROTOCOLS (bit masks) | 7.19.4 | before 7.85.0, the same http,https restriction |
/// | CURLOPT_QUICK_EXIT | 7.87.0 | where present; before it the runner ends transfers at their limit itself, and those still in a name lookup on a thread of their own (end_later.c) |
/// | CURLOPT_HTTP09_ALLOWED | 7.64.0 | always |
/// | CURLOPT_RESOLVE with several addresses per name | 7.59.0 | always |
/// | CURLOPT_INTERFACE "if!NAME" | 7.24.0 | always |
/// | CURLOPT_NOPROXY | 7.19.4 | always |
/// | CURLOPT_TIMEOUT_MS, CURLOPT_CONNECTTIMEOUT_MS | 7.16.2 | always |
/// | CURLOPT_IPRESOLVE | 7.10.8 | always |
/// | CURLOPT_SSL_CTX_FUNCTION/DATA (tls_contexts.c) | 7.10.6 | with OpenSSL: a quiet close; the shared store with OpenSSL 3 only |
/// | CURLOPT_SOCKOPTFUNCTION (probe_socket.c) | 7.16.0 | always |
/// | CURLOPT_CLOSESOCKETFUNCTION/DATA (socket_ledger.c) | 7.21.7 | always |
/// | CURLOPT_SHARE with CURL_LOCK_DATA_SSL_SESSION only (tls_contexts.c) | 7.23.0 | always, for TLS |
/// | CURLOPT_BUFFERSIZE, CURLOPT_DNS_CACHE_TIMEOUT, CURLOPT_FRESH_CONNECT, CURLOPT_FORBID_REUSE, CURLOPT_NOSIGNAL, CURLOPT_ERRORBUFFER, CURLOPT_HTTPGET, CURLOPT_FOLLOWLOCATION, the rest | 7.10 or older | always |
///
/// What a finished transfer is asked (CURLINFO_*_TIME_T: 7.61.0, CURLINFO_SIZE_*_T: 7.55.0,
/// the rest older) and CURLMOPT_PIPELINING (7.16.0) are all older than 7.66.0.
public struct CurlLibrary: Sendable, Equatable, CustomStringConvertible {
    /// curl_version_info's version_num: 0xXXYYZZ for XX.YY.ZZ.
    public let versionNumber: UInt32
    /// curl_version_info's version text, e.g. "7.74.0".
    public let version: String

    public init(versionNumber: UInt32, version: String) {
        self.versionNumber = versionNumber
        self.version = version
    }

    /// The libcurl netprobe loaded; call only after `CurlGlobal.ensureInitialized()` succeeded.
    static var loaded: CurlLibrary {
        CurlLibrary(versionNumber: netprobe_curl_version_num(), version: String(cString: netprobe_curl_version()))
    }

    public var description: String { "libcurl \(version)" }

    /// CURLOPT_PROTOCOLS_STR and CURLOPT_REDIR_PROTOCOLS_STR: 7.85.0 added them, and newer
    /// headers mark the bit-mask options they replace deprecated.
    public var hasProtocolsString: Bool { versionNumber >= 0x075500 }

    /// CURLOPT_QUICK_EXIT (7.87.0): cleanup of a transfer does not wait for its resolver thread.
    public var hasQuickExit: Bool { versionNumber >= 0x075700 }
}
