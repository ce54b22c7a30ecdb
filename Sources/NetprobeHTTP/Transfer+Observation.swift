import CCurl
import NetprobeCore

/// Reading the outcome back out of the easy handle. Strings libcurl returns belong to
/// the handle, so everything is copied into Swift values here, before cleanup.
extension Transfer {
    /// The observation for a transfer libcurl finished with `result`.
    func observation(result: CURLcode) -> ProbeObservation {
        var observation = baseObservation(measuredTotalMs: nil)
        observation.transportError = transportError(for: result, remoteAddress: observation.remoteAddress)
        return observation
    }

    /// The observation for a transfer we ended ourselves (deadline passed, verdict decided).
    /// Whatever arrived before that (status, headers, part of a body) is kept as evidence.
    func observation(endedWith error: TransportError) -> ProbeObservation {
        var observation = baseObservation(measuredTotalMs: Self.milliseconds(ContinuousClock.now - started))
        observation.transportError = error
        return observation
    }

    private func baseObservation(measuredTotalMs: Double?) -> ProbeObservation {
        let status = longInfo(CURLINFO_RESPONSE_CODE)
        let address = stringInfo(CURLINFO_PRIMARY_IP)
        let curlTotal = timeInfo(CURLINFO_TOTAL_TIME_T) ?? 0
        let timings = ProbeTimings(
            dnsMs: timeInfo(CURLINFO_NAMELOOKUP_TIME_T),
            connectMs: timeInfo(CURLINFO_CONNECT_TIME_T),
            tlsMs: timeInfo(CURLINFO_APPCONNECT_TIME_T),
            firstByteMs: timeInfo(CURLINFO_STARTTRANSFER_TIME_T),
            totalMs: measuredTotalMs.map { max($0, curlTotal) } ?? curlTotal
        )
        return ProbeObservation(
            name: request.name, url: request.url,
            status: status > 0 ? status : nil,
            headers: collectedHeaders, body: collectedBody, bodyTruncated: bodyWasTruncated,
            transportError: nil, timings: timings,
            remoteAddress: address.flatMap { $0.isEmpty ? nil : $0 }
        )
    }

    private func transportError(for result: CURLcode, remoteAddress: String?) -> TransportError? {
        if result == CURLE_OK { return nil }
        // We stopped reading on purpose at the body cap: the answer itself was fine.
        if result == CURLE_WRITE_ERROR && bodyWasTruncated { return nil }
        let connected = remoteAddress != nil || (timeInfo(CURLINFO_CONNECT_TIME_T) ?? 0) > 0
        let kind = CurlErrorClassifier.kind(
            code: result.rawValue, osErrno: Int32(truncatingIfNeeded: longInfo(CURLINFO_OS_ERRNO)), connected: connected)
        let detail = curlErrorText
        let message = detail.isEmpty ? String(cString: curl_easy_strerror(result)) : detail
        return TransportError(kind: kind, code: Int(result.rawValue), message: message)
    }

    private func longInfo(_ info: CURLINFO) -> Int {
        var value = 0
        return netprobe_easy_getinfo_long(handle, info, &value) == CURLE_OK ? value : 0
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

    static func milliseconds(_ duration: Duration) -> Double {
        let parts = duration.components
        return Double(parts.seconds) * 1000 + Double(parts.attoseconds) / 1e15
    }
}
