import CCurl
import NetprobeWire
import NetprobeVerdict
import NetprobeSystem

/// libcurl is loaded (dlopen) and initialised on the first transfer, never at exec: a
/// check that sends nothing does not pay for the library and its dependencies.
///
/// libcurl wants curl_global_init called once per process before any other call,
/// and it is not thread-safe in every build. A global `let` is initialised
/// exactly once, lazily and atomically (swift_once), which is the guarantee we need
/// for both the load and the init. We never call curl_global_cleanup: the process
/// exit releases everything, and cleaning up while another runner might start would be a race.
private let globalSetup: Result<CurlLibrary, HTTPError> = {
    var message = [CChar](repeating: 0, count: 512)
    guard netprobe_curl_load(&message, message.count) == 0 else {
        return .failure(.libraryUnavailable(String(decoding: message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)))
    }
    let library = CurlLibrary.loaded
    let code = netprobe_curl_global_init()
    guard code == CURLE_OK else {
        return .failure(.globalInitFailed(code: Int(code.rawValue), message: "\(library): \(String(cString: netprobe_easy_strerror(code)))"))
    }
    return .success(library)
}()

enum CurlGlobal {
    /// Loads and initialises libcurl on first call; later calls return the first call's outcome:
    /// the library found, whose version decides which options a transfer sets.
    @discardableResult
    static func ensureInitialized() throws(HTTPError) -> CurlLibrary {
        try globalSetup.get()
    }
}
