#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import NetprobeWire
import NetprobeLinkState
import NetprobeVerdict

/// dhcpcd's leases. It names them after the interface, and on Wi-Fi after the network too,
/// so that each SSID keeps its own: `IF.lease`, `IF-SSID.lease` (dhcpcd 7 and later),
/// `dhcpcd-IF.lease`, `dhcpcd-IF-SSID.lease` (6.x), and `.lease6` beside each for DHCPv6.
/// Every one is read; the caller keeps those whose address is on the interface now (the
/// network it is on), newest first.
extension LeaseReader {
    /// The names among `files` that dhcpcd may have written for interface `name`, with
    /// whether each is a DHCPv6 lease.
    static func dhcpcdFiles(_ files: [String], interface name: String) -> [(file: String, v6: Bool)] {
        files.compactMap { file in
            let v6 = file.hasSuffix(".lease6")
            guard v6 || file.hasSuffix(".lease") else { return nil }
            var stem = Substring(file.dropLast(v6 ? 7 : 6))
            if stem.hasPrefix("dhcpcd-") { stem = stem.dropFirst(7) }
            // IF, or IF-SSID: an SSID may hold any byte dhcpcd keeps, a '-' or a '.' too.
            guard stem == name || (stem.hasPrefix(name + "-") && stem.count > name.count + 1) else { return nil }
            return (file, v6)
        }
    }

    /// Every unexpired dhcpcd lease recorded for the interface, in the dhcpcd directories.
    func dhcpcdLeases(interface name: String, addresses: [InterfaceAddress], now: Date,
                      problems: inout [String]) -> [Lease] {
        var leases: [Lease] = []
        for directory in dhcpcdDirectories {
            for (file, v6) in Self.dhcpcdFiles(Self.list(directory), interface: name) {
                let path = "\(directory)/\(file)"
                let lease = v6 ? dhcpcdLease6(path, interface: name, addresses: addresses, now: now, problems: &problems)
                               : dhcpcdLease(path, interface: name, now: now, problems: &problems)
                if let lease { leases.append(lease) }
            }
        }
        return leases
    }

    /// A dhcpcd DHCPv6 lease that has not expired: it has when the file is older than the
    /// longest valid lifetime of its addresses. Its address is the leased one the interface
    /// holds, if any (a stateless reply leases none, and so never counts).
    func dhcpcdLease6(_ path: String, interface: String, addresses: [InterfaceAddress], now: Date,
                      problems: inout [String]) -> Lease? {
        guard let message = bytes(path, &problems), let options = DHCPv6Message.options(message) else { return nil }
        let leased = DHCPv6Message.leasedAddresses(options)
        guard let longest = leased.map(\.validLifetime).max() else { return nil }
        let written = Self.modified(path)
        if longest != UInt32.max, let written, written.addingTimeInterval(TimeInterval(longest)) <= now { return nil }
        let address = leased.first { Self.holds(addresses, $0.address) }?.address ?? leased.first?.address
        return Lease(source: "dhcpcd", interface: interface, captivePortal: DHCPv6Message.captivePortal(options),
                     nameServers: DHCPv6Message.nameServers(options), address: address, written: written)
    }
}
