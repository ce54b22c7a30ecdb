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
    static let attempts = 5

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
        var dump = try NetlinkDump.read(sysfsRoot: sysfsRoot)
        var attempt = 1
        while !dump.consistent && attempt < Self.attempts {
            dump = try NetlinkDump.read(sysfsRoot: sysfsRoot)
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
