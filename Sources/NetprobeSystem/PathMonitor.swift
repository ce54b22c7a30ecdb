import CNetlink
import Glibc
import NetprobeWire
import NetprobeVerdict

/// Wakes the caller when the kernel's link, address, route or policy-rule tables change.
///
/// One netlink socket subscribed to the rtnetlink link, IPv4/IPv6 address, IPv4/IPv6
/// route and IPv4/IPv6 rule groups. Rules belong here as much as routes: the kernel's
/// answer for the machine's traffic (`ip route get`), which the gate rests on, goes
/// through them first (a VPN's `ip rule` into its own table, a rule into a black hole).
/// The events are not decoded: any change means "take a fresh snapshot", which is
/// cheaper and simpler than patching one.
///
/// The socket belongs to the network namespace of the thread that created the
/// monitor. Not Sendable: use it from one thread (a dedicated watcher thread).
public final class PathMonitor {
    public enum Event: Sendable, Equatable {
        /// At least one change arrived.
        case changed
        /// The kernel dropped events (ENOBUFS): take a fresh snapshot.
        case overflow
        /// Nothing changed before the timeout.
        case timeout
    }

    /// Receive buffer we ask for: bursts of events should not overflow it.
    static let receiveBufferBytes: Int32 = 1 << 20

    private let socket: NetlinkSocket
    private var buffer = [UInt8](repeating: 0, count: 64 * 1024)

    public convenience init() throws(NetlinkError) {
        try self.init(receiveBufferBytes: Self.receiveBufferBytes)
    }

    /// `receiveBufferBytes` is adjustable so tests can provoke an overflow.
    init(receiveBufferBytes: Int32) throws(NetlinkError) {
        socket = try NetlinkSocket()
        // We only receive notifications and never send requests, so there are no sequence numbers to check.
        nl_socket_disable_seq_check(socket.handle)
        let groups: [rtnetlink_groups] = [
            RTNLGRP_LINK, RTNLGRP_IPV4_IFADDR, RTNLGRP_IPV6_IFADDR, RTNLGRP_IPV4_ROUTE, RTNLGRP_IPV6_ROUTE,
            RTNLGRP_IPV4_RULE, RTNLGRP_IPV6_RULE,
        ]
        for group in groups {
            try NetlinkError.check(nl_socket_add_membership(socket.handle, Int32(group.rawValue)), "nl_socket_add_membership")
        }
        // The kernel caps this at net.core.rmem_max; a smaller buffer only means earlier .overflow.
        _ = nl_socket_set_buffer_size(socket.handle, receiveBufferBytes, 0)
        try NetlinkError.check(nl_socket_set_nonblocking(socket.handle), "nl_socket_set_nonblocking")
    }

    /// The netlink socket's descriptor, for callers that poll several sources.
    /// Readable means events are pending; call `waitForChange` to consume them.
    public var fileDescriptor: Int32 { socket.fileDescriptor }

    /// Blocks up to `timeout` (nil = forever) for kernel change events, then drains
    /// everything pending. Returns .changed, .overflow (ENOBUFS: events were lost, caller
    /// must resynchronise with a fresh snapshot), or .timeout. Uses poll(2), never busy-waits.
    /// A burst is not folded into one wake-up here: the caller (ChangeWaiter) polls this
    /// socket beside its other sources and settles bursts across all of them itself.
    public func waitForChange(timeout: Duration?) -> Event {
        guard waitReadable(until: timeout.map { ContinuousClock.now + $0 }) else { return .timeout }
        return drain() ? .overflow : .changed
    }

    /// Reads and discards every pending message. Returns true if the kernel
    /// reported lost events (ENOBUFS). Bounded: a flood cannot keep us here.
    private func drain() -> Bool {
        let fd = socket.fileDescriptor
        var overflowed = false
        for _ in 0..<4096 {
            let count = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT)) }
            if count > 0 { continue }
            if count == 0 { return overflowed }  // nothing more to read
            switch errno {
            case EINTR: continue
            case ENOBUFS: overflowed = true  // the next recv returns the messages that did fit
            default: return overflowed  // EAGAIN: empty
            }
        }
        return overflowed
    }

    /// poll(2) until the socket is readable (true) or `deadline` passes (false).
    private func waitReadable(until deadline: ContinuousClock.Instant?) -> Bool {
        while true {
            // No deadline: -1, wait forever.
            let milliseconds = deadline.map { ContinuousClock.now.duration(to: $0).pollMilliseconds } ?? -1
            var entry = pollfd(fd: socket.fileDescriptor, events: Int16(POLLIN), revents: 0)
            let ready = poll(&entry, 1, milliseconds)
            if ready > 0 { return true }
            // A signal cut the wait short: wait again for the remaining time.
            if ready < 0 && errno == EINTR { continue }
            // Timed out (or poll failed, which retrying would not fix).
            return false
        }
    }
}
