import CCurl

/// The certificate stores a round's HTTPS handshakes share, one per trusted directory
/// (trust_share.c says why). Lives for one `ProbeRunner.run`: a directory's certificates are
/// read again by the next round, so a CA removed from the system is never trusted from a cache.
final class TrustShares {
    private var shares: [String: OpaquePointer] = [:]

    deinit {
        for share in shares.values { netprobe_trust_share_free(share) }
    }

    /// Makes `handle`'s TLS contexts use the store shared by every transfer trusting `directory`.
    /// Returns false, leaving the transfer its own store, where sharing is not available.
    func attach(_ handle: UnsafeMutableRawPointer, directory: String) -> Bool {
        guard netprobe_trust_share_available() != 0 else { return false }
        let share: OpaquePointer
        if let existing = shares[directory] {
            share = existing
        } else {
            guard let created = netprobe_trust_share_new() else { return false }
            shares[directory] = created
            share = created
        }
        return netprobe_easy_share_trust(handle, share) == CURLE_OK
    }

    /// Handshakes so far that were given an earlier handshake's store.
    var reuses: Int {
        shares.values.reduce(0) { $0 + Int(netprobe_trust_share_reuses($1)) }
    }
}
