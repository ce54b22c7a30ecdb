#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import CSystemd
import NetprobeWire
import NetprobeLinkState

/// Which daemons that configure links are asked through their public interfaces, before any of
/// their files is read: NetworkManager and systemd-resolved over D-Bus (the system bus, or
/// `DBUS_SYSTEM_BUS_ADDRESS`), and systemd-networkd over D-Bus too (its link's `Describe`:
/// libsystemd exports no sd-network). libsystemd is loaded on the first question
/// (`systemdLoadFailure` says why not, when it cannot be); a machine without it, or without a
/// bus, answers nothing and the files are read as before. Asked only for a path whose gate let
/// probes through: an offline answer loads nothing.
public struct LinkOwners: Sendable, Equatable {
    public var networkManager: Bool
    public var resolved: Bool
    public var networkd: Bool
    /// How long one D-Bus call may take, connecting to the broker included: a daemon that does
    /// not answer in this time is one that does not answer (each is local and answers in well
    /// under a millisecond).
    public var timeout: Duration
    /// The connection they are asked over, shared by every reader given these owners (a
    /// `Checker` puts its own here: one per check, or per `wait` or `watch`).
    public var bus: OwnerBus

    public init(networkManager: Bool = false, resolved: Bool = false, networkd: Bool = false,
                timeout: Duration = .milliseconds(250), bus: OwnerBus = OwnerBus()) {
        self.networkManager = networkManager
        self.resolved = resolved
        self.networkd = networkd
        self.timeout = timeout
        self.bus = bus
    }

    /// Nobody is asked: the files alone (tests, and `path`).
    public static var none: LinkOwners { LinkOwners() }
    public static var all: LinkOwners { LinkOwners(networkManager: true, resolved: true, networkd: true) }

    /// Who is asked and how long: the connection is not what they are.
    public static func == (lhs: LinkOwners, rhs: LinkOwners) -> Bool {
        lhs.networkManager == rhs.networkManager && lhs.resolved == rhs.resolved && lhs.networkd == rhs.networkd
            && lhs.timeout == rhs.timeout
    }

    var asksAnyone: Bool { networkManager || resolved || networkd }

    /// A session of questions over `bus` (connected on the first question of a check, kept).
    func session() -> OwnerSession? {
        asksAnyone ? OwnerSession(self) : nil
    }
}

/// The questions of one read, over the owners' shared connection, each within their limit.
struct OwnerSession {
    let owners: LinkOwners

    init(_ owners: LinkOwners) {
        self.owners = owners
    }

    private func call(_ destination: String, _ path: String, _ interface: String, _ member: String,
                      string: String? = nil, int32: Int32? = nil) -> [BusValue]? {
        owners.bus.call(destination, path, interface, member, string: string, int32: int32, limit: owners.timeout)
    }

    private func allProperties(_ destination: String, _ path: String, _ interface: String) -> BusValue? {
        owners.bus.properties(destination, path, interface, limit: owners.timeout)
    }

    static let networkManagerName = "org.freedesktop.NetworkManager"
    /// NM_DEVICE_TYPE_WIFI.
    static let wifiDeviceType: Int64 = 2

    /// What NetworkManager says of the device `interface`; nil when it is not running or does
    /// not manage the device.
    func networkManager(interface: String) -> NetworkManagerAnswer? {
        guard owners.networkManager else { return nil }
        let name = Self.networkManagerName
        guard let reply = call(name, "/org/freedesktop/NetworkManager", name, "GetDeviceByIpIface", string: interface),
              let device = reply.first?.string,
              let properties = allProperties(name, device, "\(name).Device") else { return nil }
        var answer = NetworkManagerAnswer()
        for (property, kind) in [("Dhcp4Config", "DHCP4Config"), ("Dhcp6Config", "DHCP6Config")] {
            guard let path = properties[property]?.string, path != "/",
                  let options = allProperties(name, path, "\(name).\(kind)")?["Options"] else { continue }
            answer.add(dhcpOptions: options)
        }
        for (property, kind) in [("Ip4Config", "IP4Config"), ("Ip6Config", "IP6Config")] {
            guard let path = properties[property]?.string, path != "/",
                  let data = allProperties(name, path, "\(name).\(kind)")?["NameserverData"] else { continue }
            answer.add(nameserverData: data)
        }
        // A Wi-Fi device (NM_DEVICE_TYPE_WIFI): the SSID of its active access point, a part of the
        // network's identity. Two more questions, and only on Wi-Fi.
        if properties["DeviceType"]?.integer == Self.wifiDeviceType,
           let point = allProperties(name, device, "\(name).Device.Wireless")?["ActiveAccessPoint"]?.string, point != "/",
           let access = allProperties(name, point, "\(name).AccessPoint") {
            answer.add(accessPoint: access)
        }
        return answer
    }

    /// NetworkManager's DNS mode (`dnsmasq`, `systemd-resolved`, `default`, `none`, ...); nil when
    /// it is not running.
    func networkManagerDNSMode() -> String? {
        guard owners.networkManager else { return nil }
        let name = Self.networkManagerName
        return allProperties(name, "/org/freedesktop/NetworkManager/DnsManager", "\(name).DnsManager")?["Mode"]?.string
    }

    static let resolvedName = "org.freedesktop.resolve1"

    /// What systemd-resolved says it uses for the link `index`; nil when it is not running.
    func resolved(index: Int) -> ResolvedAnswer? {
        guard owners.resolved, let index = Int32(exactly: index) else { return nil }
        let name = Self.resolvedName
        guard let reply = call(name, "/org/freedesktop/resolve1", "\(name).Manager", "GetLink", int32: index),
              let link = reply.first?.string,
              let properties = allProperties(name, link, "\(name).Link") else { return nil }
        return ResolvedAnswer(linkProperties: properties)
    }

    static let networkdName = "org.freedesktop.network1"

    /// What systemd-networkd says of the link `index`; nil when it is not running or does not
    /// manage the link.
    func networkd(index: Int) -> NetworkdAnswer? {
        guard owners.networkd, let index = Int32(exactly: index) else { return nil }
        let name = Self.networkdName
        guard let reply = call(name, "/org/freedesktop/network1", "\(name).Manager", "GetLinkByIndex", int32: index),
              reply.count == 2, let link = reply[1].string,
              let description = call(name, link, "\(name).Link", "Describe")?.first?.string else { return nil }
        return NetworkdAnswer(describe: Array(description.utf8))
    }
}
