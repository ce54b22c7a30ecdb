import CCurl
import NetprobeWire
import NetprobeVerdict
import NetprobeSystem

/// Reading the outcome back out of the easy handle. Strings libcurl returns belong to
/// the handle, so everything is copied into Swift values here, before cleanup.
extension Transfer {
    /// The observation for a transfer libcurl finished with `result`.
    func observation(result: CURLcode) -> ProbeObservation {
        var observation = baseObservation(measuredTotalMs: nil)
        observation.transportError = transportError(for: result, observation: observation)
        return observation
    }

    /// The observation for a transfer we ended ourselves (deadline passed, verdict decided).
    /// Whatever arrived before that (status, headers, part of a body) is kept as evidence.
    func observation(endedWith error: TransportError) -> ProbeObservation {
        var observation = baseObservation(measuredTotalMs: (ContinuousClock.now - started).inMilliseconds)
        // The deadline passing before the proxy even took the connection is the proxy's failure.
        observation.transportError = error.kind == .timeout
            ? attributed(error, osErrno: 0, observation: observation) : error
        return observation
    }

    private func baseObservation(measuredTotalMs: Double?) -> ProbeObservation {
        let status = longInfo(CURLINFO_RESPONSE_CODE)
        let address = stringInfo(CURLINFO_PRIMARY_IP).flatMap { $0.isEmpty ? nil : $0 }
        let curlTotal = timeInfo(CURLINFO_TOTAL_TIME_T) ?? 0
        let timings = ProbeTimings(
            dnsMs: timeInfo(CURLINFO_NAMELOOKUP_TIME_T),
            connectMs: timeInfo(CURLINFO_CONNECT_TIME_T),
            tlsMs: timeInfo(CURLINFO_APPCONNECT_TIME_T),
            firstByteMs: timeInfo(CURLINFO_STARTTRANSFER_TIME_T),
            totalMs: measuredTotalMs.map { max($0, curlTotal) } ?? curlTotal
        )
        var observation = ProbeObservation(
            name: request.name, url: request.url,
            status: status > 0 ? status : nil,
            headers: collectedHeaders, body: collectedBody, bodyTruncated: bodyWasTruncated,
            transportError: nil, timings: timings,
            remoteAddress: address
        )
        observation.bytesSent = longInfo(CURLINFO_REQUEST_SIZE) + Int(offInfo(CURLINFO_SIZE_UPLOAD_T))
        observation.bytesReceived = longInfo(CURLINFO_HEADER_SIZE) + Int(offInfo(CURLINFO_SIZE_DOWNLOAD_T))
        if let proxy = request.proxy {
            // Through a proxy, libcurl's peer is the proxy: its address is not where the
            // probe's name led (DNS-hijack evidence must not read it as such).
            observation.remoteAddress = nil
            observation.proxy = proxy.redacted
            observation.proxyAddress = address
            let connect = longInfo(CURLINFO_HTTP_CONNECTCODE)
            observation.proxyConnectStatus = connect > 0 ? connect : nil
            if observation.proxyAuthRequired {
                observation.proxyAuthRealm = observation.header("proxy-authenticate").flatMap(ProxyChallenge.realm)
            }
        }
        return observation
    }

    private func transportError(for result: CURLcode, observation: ProbeObservation) -> TransportError? {
        // A complete answer (or one we stopped reading on purpose at the body cap) can
        // still be broken HTTP that libcurl let through.
        if result == CURLE_OK || (result == CURLE_WRITE_ERROR && bodyWasTruncated) {
            return Framing.error(headers: collectedHeaders).map { attributed($0, osErrno: 0, observation: observation) }
        }
        let osErrno = Int32(truncatingIfNeeded: longInfo(CURLINFO_OS_ERRNO))
        let kind = CurlErrorClassifier.kind(code: result.rawValue, osErrno: osErrno, connected: connected(observation))
        let detail = curlErrorText
        let message = detail.isEmpty ? String(cString: netprobe_easy_strerror(result)) : detail
        return attributed(TransportError(kind: kind, code: Int(result.rawValue), message: message),
                          osErrno: osErrno, observation: observation)
    }

    /// A TCP connection to our peer (the server, or the proxy) was made.
    private func connected(_ observation: ProbeObservation) -> Bool {
        let peer = request.proxy == nil ? observation.remoteAddress : observation.proxyAddress
        return peer != nil || (timeInfo(CURLINFO_CONNECT_TIME_T) ?? 0) > 0
    }

    /// Through a proxy: the error with the proxy's credentials scrubbed from its text and,
    /// when the proxy rather than the far side failed, turned into kind `.proxy`.
    private func attributed(_ error: TransportError, osErrno: Int32, observation: ProbeObservation) -> TransportError {
        guard let proxy = request.proxy else { return error }
        let message = proxy.scrub(error.message)
        let failure = CurlErrorClassifier.ProxiedFailure(
            code: UInt32(error.code), kind: error.kind, osErrno: osErrno, connected: connected(observation),
            tunnelling: ProbeSpec.isHTTPS(request.url),
            connectStatus: observation.proxyConnectStatus ?? 0, status: observation.status ?? 0,
            proxyIsTLS: proxy.scheme == .https)
        switch CurlErrorClassifier.blame(failure) {
        case .farSide:
            return TransportError(kind: error.kind, code: error.code, message: message)
        case .proxy(let cause):
            return TransportError(kind: .proxy, code: error.code, message: "proxy \(proxy.redacted): \(message)", cause: cause)
        }
    }

    private func longInfo(_ info: CURLINFO) -> Int {
        var value = 0
        return netprobe_easy_getinfo_long(handle, info, &value) == CURLE_OK ? value : 0
    }

    private func offInfo(_ info: CURLINFO) -> curl_off_t {
        var value: curl_off_t = 0
        return netprobe_easy_getinfo_off_t(handle, info, &value) == CURLE_OK ? max(value, 0) : 0
    }

    private func stringInfo(_ info: CURLINFO) -> String? {
        var value: UnsafeMutablePointer<CChar>?
        guard netprobe_easy_getinfo_string(handle, info, &value) == CURLE_OK, let value else { return nil }
        return String(cString: value)
    }

    /// A *_TIME_T value (microseconds since the transfer started) in milliseconds;
    /// nil when the phase never happened (libcurl reports 0).
    private func timeInfo(_ info: CURLINFO) -> Double? {
        var value: curl_off_t = 0
        guard netprobe_easy_getinfo_off_t(handle, info, &value) == CURLE_OK, value > 0 else { return nil }
        return Double(value) / 1000
    }
}
