import CNetlink
import NetprobeCore

/// Reads the kernel's view of the network (links, addresses, default routes)
/// over netlink, plus the resolver configuration.
///
/// Each `snapshot()` opens and frees its own netlink socket, so the reader is
/// freely shareable; the snapshot reflects the network namespace of the
/// calling thread.
public struct PathReader: Sendable {
    public var resolvConfPath: String
    public var sysfsRoot: String

    /// How often a dump disturbed by concurrent changes is retried before giving up.
    static let attempts = 5

    public init(resolvConfPath: String = "/etc/resolv.conf", sysfsRoot: String = "/sys/class/net") {
        self.resolvConfPath = resolvConfPath
        self.sysfsRoot = sysfsRoot
    }

    /// One consistent snapshot from netlink: links, addresses, unicast default
    /// routes (IPv4+IPv6, all tables except local), DNS.
    ///
    /// "Consistent": if the kernel flags a dump as interrupted (NLE_DUMP_INTR)
    /// or the link, address and route dumps disagree about which interfaces
    /// exist, the whole read is repeated (a few times, then NLE_DUMP_INTR is thrown).
    public func snapshot() throws(NetlinkError) -> PathSnapshot {
        for _ in 1...Self.attempts {
            let dump: NetlinkDump
            do {
                guard case .success(let consistent) = try NetlinkDump.read(sysfsRoot: sysfsRoot) else { continue }
                dump = consistent
            } catch where error.code == NLE_DUMP_INTR {
                continue
            }
            return PathSnapshot(
                interfaces: dump.interfaces, defaultRoutes: dump.defaultRoutes,
                dns: ResolvConf.load(path: resolvConfPath))
        }
        throw NetlinkError(code: NLE_DUMP_INTR, operation: "snapshot (tables kept changing)")
    }
}
