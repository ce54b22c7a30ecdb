import CCurl

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import NetprobeWire
import NetprobeVerdict
import NetprobeSystem

/// Turns libcurl's failure report into the team's transport error classes.
/// CURLcode alone is too coarse for connect failures, so the socket errno decides there.
enum CurlErrorClassifier {
    /// - Parameters:
    ///   - code: the transfer's CURLcode (non-zero).
    ///   - osErrno: CURLINFO_OS_ERRNO, 0 when libcurl recorded none.
    ///   - connected: a TCP connection to the server was made (then "unsupported protocol"
    ///     is the server answering in something that is not HTTP, not a bad URL scheme).
    static func kind(code: UInt32, osErrno: Int32, connected: Bool) -> TransportErrorKind {
        // CURLE_TOO_LARGE (libcurl 8.6+; not in every header we build against): a header line
        // or header block over libcurl's limit. The far side broke HTTP.
        if code == tooLarge { return .proto }
        // CURLE_SSL_CLIENTCERT (7.77.0; not in the oldest headers we build against): the server
        // asked for a client certificate.
        if code == sslClientCertificate { return .tls }
        switch CURLcode(rawValue: code) {
        case CURLE_COULDNT_RESOLVE_HOST, CURLE_COULDNT_RESOLVE_PROXY:
            return .dns
        case CURLE_COULDNT_CONNECT:
            return connectFailure(osErrno: osErrno)
        // Binding to an interface that is missing or has no address: no path through it.
        case CURLE_INTERFACE_FAILED:
            return .unreachable
        case CURLE_OPERATION_TIMEDOUT:
            return .timeout
        case CURLE_SSL_CONNECT_ERROR, CURLE_PEER_FAILED_VERIFICATION, CURLE_SSL_CERTPROBLEM,
            CURLE_SSL_CIPHER, CURLE_SSL_ENGINE_NOTFOUND, CURLE_SSL_ENGINE_SETFAILED,
            CURLE_SSL_ENGINE_INITFAILED, CURLE_SSL_CACERT_BADFILE, CURLE_SSL_SHUTDOWN_FAILED,
            CURLE_SSL_CRL_BADFILE, CURLE_SSL_ISSUER_ERROR, CURLE_SSL_PINNEDPUBKEYNOTMATCH,
            CURLE_SSL_INVALIDCERTSTATUS, CURLE_USE_SSL_FAILED:
            return .tls
        // The peer closed or reset the connection before a complete answer.
        case CURLE_RECV_ERROR, CURLE_SEND_ERROR, CURLE_GOT_NOTHING, CURLE_PARTIAL_FILE:
            if osErrno == ETIMEDOUT { return .timeout }
            // libcurl refuses a header block over its limit as a receive error with no errno:
            // the peer did answer, just not with sane HTTP.
            return code == CURLE_RECV_ERROR.rawValue && osErrno == 0 && connected ? .proto : .reset
        // Something answered, but not in HTTP: garbage, HTTP/0.9, broken framing or encoding.
        case CURLE_WEIRD_SERVER_REPLY, CURLE_HTTP2, CURLE_HTTP2_STREAM, CURLE_HTTP3,
            CURLE_BAD_CONTENT_ENCODING:
            return .proto
        case CURLE_UNSUPPORTED_PROTOCOL:
            return connected ? .proto : .other
        // libcurl before 8.6 refuses one header line over CURL_MAX_HTTP_HEADER (100 KiB)
        // as out of memory ("Rejected ... bytes header"): from a peer we are talking to, that
        // is its answer's fault, not ours.
        case CURLE_OUT_OF_MEMORY where connected:
            return .proto
        case CURLE_ABORTED_BY_CALLBACK:
            return .cancelled
        default:
            return .other
        }
    }

    /// CURLE_TOO_LARGE's stable number.
    static let tooLarge: UInt32 = 100
    /// CURLE_SSL_CLIENTCERT's stable number.
    static let sslClientCertificate: UInt32 = 98

    /// What libcurl knew about a failed transfer that went through a proxy.
    struct ProxiedFailure {
        var code: UInt32
        /// `kind(code:osErrno:connected:)` of the same failure.
        var kind: TransportErrorKind
        var osErrno: Int32
        /// A TCP connection to the proxy was made.
        var connected: Bool
        /// The URL is https, so libcurl asked the proxy to CONNECT first.
        var tunnelling: Bool
        /// The proxy's answer to CONNECT (CURLINFO_HTTP_CONNECTCODE), 0 when none came.
        var connectStatus: Int
        /// The response status of the request itself, 0 when none came.
        var status: Int
        /// The proxy speaks TLS (https://): handshake errors before any answer are its own.
        var proxyIsTLS: Bool
    }

    enum Blame: Equatable {
        /// The far side failed, or it cannot be told apart from the proxy relaying its failure.
        case farSide
        /// The proxy failed: `cause` for `TransportError.cause`, nil when the proxy answered
        /// but refused to relay (CONNECT 403, 407, ...).
        case proxy(cause: TransportErrorKind?)
    }

    /// Whether the proxy, not the far side, failed a proxied transfer, and how.
    static func blame(_ failure: ProxiedFailure) -> Blame {
        // Before a CONNECT answer (https) or any response (http), the proxy is the only peer.
        let beforeAnswer = failure.tunnelling ? failure.connectStatus == 0 : failure.status == 0
        switch CURLcode(rawValue: failure.code) {
        case CURLE_COULDNT_RESOLVE_PROXY:
            return .proxy(cause: .dns)
        // With a proxy, libcurl connects only to the proxy: the far side is the proxy's business.
        case CURLE_COULDNT_CONNECT:
            return .proxy(cause: failure.kind)
        // SOCKS handshake or the proxy's own refusal (CURLINFO_PROXY_ERROR has the detail).
        case CURLE_PROXY:
            return .proxy(cause: nil)
        case CURLE_OPERATION_TIMEDOUT:
            // Not even connected to the proxy. Once connected, a slow answer may be the far
            // side's silence relayed: that stays a timeout.
            return failure.connected ? .farSide : .proxy(cause: .timeout)
        default:
            break
        }
        // CONNECT answered with an error: libcurl ends with a receive error, the code says why.
        if failure.tunnelling && failure.connectStatus >= 300 { return .proxy(cause: nil) }
        guard beforeAnswer else { return .farSide }
        switch failure.kind {
        case .reset, .timeout:
            // The proxy dropped the connection before answering (a real proxy answers 502
            // when the far side fails; an http URL's partial answer stays the far side's).
            return .proxy(cause: failure.kind)
        case .tls where failure.proxyIsTLS:
            return .proxy(cause: .tls)
        case .proto where failure.tunnelling:
            return .proxy(cause: .proto)  // garbage instead of a CONNECT answer
        default:
            return .farSide
        }
    }

    private static func connectFailure(osErrno: Int32) -> TransportErrorKind {
        switch osErrno {
        case ECONNREFUSED:
            return .refused
        case ENETUNREACH, EHOSTUNREACH, ENETDOWN, EHOSTDOWN, EADDRNOTAVAIL:
            return .unreachable
        case ETIMEDOUT:
            return .timeout
        case ECONNRESET:
            return .reset
        default:
            // libcurl reports "couldn't connect" without errno when every address failed
            // in different ways; "unreachable" is the honest summary of that.
            return .unreachable
        }
    }
}
