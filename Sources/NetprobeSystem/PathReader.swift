import CNetlink
import NetprobeWire
import NetprobeVerdict

/// Reads the kernel's view of the network (links, addresses, default routes)
/// over netlink, plus the resolver configuration.
///
/// Each `snapshot()` opens and frees its own netlink socket, so the reader is
/// freely shareable; the snapshot reflects the network namespace of the
/// calling thread.
public struct PathReader: Sendable {
    public var resolvConfPath: String
    public var sysfsRoot: String
    /// Where a local stub's upstream servers are read (`StubUpstreams`).
    public var stubUpstreams: StubUpstreams

    /// How many times a read disturbed by concurrent changes is repeated.
    package static let attempts = 5
    /// One pass over the kernel's tables: `NetlinkDump.read`. Tests put a kernel whose dumps are
    /// interrupted in front of it.
    package var dumpTables: @Sendable (_ sysfsRoot: String) throws(NetlinkError) -> NetlinkDump = { root throws(NetlinkError) in
        try NetlinkDump.read(sysfsRoot: root)
    }

    public init(resolvConfPath: String = "/etc/resolv.conf", sysfsRoot: String = "/sys/class/net",
                stubUpstreams: StubUpstreams = .system()) {
        self.resolvConfPath = resolvConfPath
        self.sysfsRoot = sysfsRoot
        self.stubUpstreams = stubUpstreams
    }

    /// One consistent snapshot from netlink: links, addresses, unicast default
    /// routes (IPv4+IPv6, all tables except local), the kernel's route for ordinary
    /// traffic of each family (`ip route get`), DNS.
    ///
    /// libnl itself restarts a dump the kernel flags as interrupted. Links,
    /// addresses and routes are three dumps, though: if they disagree about
    /// which interfaces exist (something changed in between), the whole read
    /// is repeated. On a host that never stops changing, the last attempt is
    /// returned as it is, minus the addresses of vanished interfaces: a
    /// slightly stale answer beats none.
    public func snapshot() throws(NetlinkError) -> PathSnapshot {
        let root = sysfsRoot, read = dumpTables
        var dump = try Self.retryingInterruptedDumps { () throws(NetlinkError) in try read(root) }
        var attempt = 1
        while !dump.consistent && attempt < Self.attempts {
            dump = try Self.retryingInterruptedDumps { () throws(NetlinkError) in try read(root) }
            attempt += 1
        }
        var dns = ResolvConf.load(path: resolvConfPath)
        if let stub = stubUpstreams.read(dns, interfaces: dump.interfaces) {
            dns.upstreams = stub.servers
            dns.upstreamsSource = stub.source
            dns.upstreamsTransport = stub.transport
        }
        return PathSnapshot(
            interfaces: dump.interfaces, defaultRoutes: dump.defaultRoutes, kernelRoutes: dump.kernelRoutes, dns: dns)
    }

    /// `read`, repeated (at most `attempts` times in all) while the kernel flags the dump as
    /// interrupted (NLE_DUMP_INTR: its tables changed while it was being dumped, a container
    /// starting, say). libnl restarts some dumps itself, not every one; the error is a moment's
    /// state of the kernel, not a failure, so it is answered by reading again.
    package static func retryingInterruptedDumps<Result>(_ read: () throws(NetlinkError) -> Result) throws(NetlinkError) -> Result {
        var attempt = 1
        while true {
            do {
                return try read()
            } catch where error.code == NetlinkError.dumpInterrupted && attempt < attempts {
                attempt += 1
            }
        }
    }

    /// The kernel's route for each destination (an address a probe connected to), asked as
    /// `ip route get ADDRESS` asks it, over one netlink socket; devices named from
    /// `interfaces`. Addresses that are not IP addresses are left out.
    public func routes(to destinations: [String], interfaces: [NetworkInterface]) throws(NetlinkError) -> [String: RouteAnswer] {
        guard !destinations.isEmpty else { return [:] }
        let socket = try NetlinkSocket()
        var routes: [String: RouteAnswer] = [:]
        for destination in destinations where routes[destination] == nil {
            guard let bytes = IPAddressText.address(destination, octets: .strict) else { continue }
            routes[destination] = try KernelRouteLookup.ask(socket, family: bytes.count == 4 ? .ipv4 : .ipv6,
                                                             destination: destination, interfaces: interfaces)
        }
        return routes
    }
}
