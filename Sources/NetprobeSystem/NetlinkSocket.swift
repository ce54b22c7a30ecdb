import CNetlink
import NetprobeWire
import NetprobeVerdict

/// Owns one connected `NETLINK_ROUTE` libnl socket and frees it on deinit.
///
/// Not Sendable on purpose: a libnl socket must stay on the thread (or the
/// single owner) that uses it.
final class NetlinkSocket {
    let handle: OpaquePointer

    init() throws(NetlinkError) {
        guard let handle = nl_socket_alloc() else {
            throw NetlinkError(code: NLE_NOMEM, operation: "nl_socket_alloc")
        }
        let result = nl_connect(handle, NETLINK_ROUTE)
        if result < 0 {
            nl_socket_free(handle)
            throw NetlinkError(code: result, operation: "nl_connect")
        }
        self.handle = handle
    }

    var fileDescriptor: Int32 { nl_socket_get_fd(handle) }

    deinit {
        // nl_socket_free() also closes the file descriptor.
        nl_socket_free(handle)
    }
}

/// Owns one libnl cache (a full dump of links, addresses or routes).
final class NetlinkCache {
    let handle: OpaquePointer

    init(_ operation: String, fill: (UnsafeMutablePointer<OpaquePointer?>) -> Int32) throws(NetlinkError) {
        var cache: OpaquePointer?
        let result = fill(&cache)
        // On failure libnl has already freed the cache and left `cache` unset.
        guard result >= 0, let cache else {
            throw NetlinkError(code: result < 0 ? result : NLE_NOMEM, operation: operation)
        }
        handle = cache
    }

    /// Visits every object; the pointers are borrowed from the cache and must not escape `body`.
    func forEach(_ body: (OpaquePointer) -> Void) {
        var object = nl_cache_get_first(handle)
        while let current = object {
            body(current)
            object = nl_cache_get_next(current)
        }
    }

    deinit {
        nl_cache_free(handle)
    }
}
