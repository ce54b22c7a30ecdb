import CCurl
import NetprobeWire
import NetprobeVerdict
import NetprobeSystem

/// The certificate stores a round's HTTPS handshakes share, one per trusted directory
/// (trust_share.c says why). Lives for one `ProbeRunner.run`: a directory's certificates are
/// read again by the next round, so a CA removed from the system is never trusted from a cache.
final class TrustShares {
    /// Per trusted directory, in first-use order: a round almost always has one, so a scan,
    /// not a dictionary (whose storage type the runtime builds on first use).
    private var shares: [(directory: String, share: OpaquePointer)] = []

    deinit {
        for entry in shares { netprobe_trust_share_free(entry.share) }
    }

    /// Makes `handle`'s TLS contexts use the store shared by every transfer trusting `directory`.
    /// Returns false, leaving the transfer its own store, where sharing is not available.
    func attach(_ handle: UnsafeMutableRawPointer, directory: String) -> Bool {
        guard netprobe_trust_share_available() != 0 else { return false }
        let share: OpaquePointer
        if let existing = shares.first(where: { $0.directory == directory }) {
            share = existing.share
        } else {
            guard let created = netprobe_trust_share_new() else { return false }
            shares.append((directory, created))
            share = created
        }
        return netprobe_easy_share_trust(handle, share) == CURLE_OK
    }

    /// Handshakes so far that were given an earlier handshake's store.
    var reuses: Int {
        shares.reduce(0) { $0 + Int(netprobe_trust_share_reuses($1.share)) }
    }
}
