import CCurl
import Glibc
import NetprobeWire
import NetprobeVerdict
import NetprobeSystem

/// The certificate stores a round's HTTPS handshakes share, one per trusted directory
/// (tls_contexts.c says why). Lives for one `ProbeRunner.run`: a directory's certificates are
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
        return netprobe_easy_tls_contexts(handle, share) == CURLE_OK
    }

    /// Handshakes so far that were given an earlier handshake's store.
    var reuses: Int {
        shares.reduce(0) { $0 + Int(netprobe_trust_share_reuses($1.share)) }
    }
}

/// The TLS sessions a runner's HTTPS handshakes resume from one round to the next
/// (tls_contexts.c says why this is safe). Lives as long as the runner: `watch` re-checks
/// resume what its earlier checks' handshakes made; connections are never shared.
final class TLSSessions {
    private let share: UnsafeMutableRawPointer?

    init() {
        share = netprobe_session_share_new()
    }

    deinit {
        // A transfer still ending on a thread of its own keeps it in use: then it stays until exit.
        _ = netprobe_session_share_free(share)
    }

    /// Makes `handle` resume and keep its TLS sessions here; false where no share could be made.
    func attach(_ handle: UnsafeMutableRawPointer) -> Bool {
        guard let share else { return false }
        return netprobe_easy_share_sessions(handle, share) == CURLE_OK
    }
}

extension TLSSessions {
    /// What the trust of `requests`' TLS rests on, as the file system says now: each CA bundle
    /// or hashed directory's inode, size and modification time. When it changes (a CA added or
    /// taken out), the runner drops every session verified against the old trust: a resumed
    /// session is never checked against the certificates again.
    static func trustStamp(_ requests: [ProbeRequest]) -> [Int] {
        var paths: [String] = []
        for request in requests where ProbeSpec.isHTTPS(request.url) || request.proxy?.scheme == .https {
            guard let path = request.caBundle ?? request.caDirectory ?? SystemTrust.hashedDirectory,
                  !paths.contains(path) else { continue }
            paths.append(path)
        }
        return paths.sorted().flatMap { path -> [Int] in
            var info = stat()
            guard stat(path, &info) == 0 else { return [-1] }
            return [Int(info.st_ino), Int(info.st_size), Int(info.st_mtim.tv_sec), Int(info.st_mtim.tv_nsec)]
        }
    }
}
