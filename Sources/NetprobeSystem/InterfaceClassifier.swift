import CNetlink
import NetprobeWire
import NetprobeVerdict

/// Decides what kind of medium an interface is, from what the kernel says
/// about it. Pure, so every rule is unit-testable without hardware.
enum InterfaceClassifier {
    /// What sysfs adds for physical devices (netlink does not say "wifi").
    struct DeviceHints: Equatable {
        /// `DEVTYPE=` from the device's uevent ("wlan", "wwan", ...).
        var deviceType: String?
        /// `/sys/class/net/NAME/wireless` or `phy80211` exists.
        var wireless: Bool

        static let none = DeviceHints(deviceType: nil, wireless: false)
    }

    // Arrays, not sets: a handful of entries each, looked up a few times per check, and a
    // Set<Int32>'s storage type is built at run time on first use.

    /// Link kinds (IFLA_INFO_KIND) that carry traffic inside another path.
    static let tunnelKinds: [String] = [
        "tun", "wireguard", "ipip", "gre", "gretap", "erspan", "ip6gre", "ip6gretap", "ip6erspan",
        "sit", "ip6tnl", "vti", "vti6", "xfrm", "vxlan", "geneve", "bareudp", "gtp", "amt", "ovpn",
    ]

    static let tunnelHardwareTypes: [Int32] = [
        Int32(ARPHRD_TUNNEL), Int32(ARPHRD_TUNNEL6), Int32(ARPHRD_SIT), Int32(ARPHRD_IPGRE),
        Int32(CNETLINK_ARPHRD_IP6GRE), Int32(ARPHRD_IPDDP), Int32(ARPHRD_NONE),
    ]

    static let wifiHardwareTypes: [Int32] = [
        Int32(ARPHRD_IEEE80211), Int32(ARPHRD_IEEE80211_PRISM), Int32(ARPHRD_IEEE80211_RADIOTAP),
    ]

    /// Raw-IP and PPP links are what modems (WWAN, USB dongles) present.
    static let cellularHardwareTypes: [Int32] = [Int32(ARPHRD_RAWIP), Int32(ARPHRD_PPP)]

    static func classify(hardwareType: Int32, kind: String?, hints: DeviceHints) -> InterfaceType {
        if hardwareType == Int32(ARPHRD_LOOPBACK) { return .loopback }
        if wifiHardwareTypes.contains(hardwareType) || hints.deviceType == "wlan" || hints.wireless {
            return .wifi
        }
        if hints.deviceType == "wwan" || kind == "wwan" || cellularHardwareTypes.contains(hardwareType) {
            return .cellular
        }
        if let kind, tunnelKinds.contains(kind) { return .tunnel }
        if tunnelHardwareTypes.contains(hardwareType) { return .tunnel }
        // Any other kind means a software device (veth, bridge, dummy, macvlan,
        // vlan, bond, team, vrf, ...): physical NIC drivers report no kind.
        if kind != nil { return .virtual }
        if hardwareType == Int32(ARPHRD_ETHER) { return .ethernet }
        return .other
    }

    /// Reads the sysfs hints for `name`, but only if sysfs describes the same
    /// device: sysfs belongs to the mount namespace, so a thread that joined
    /// another network namespace may see a different interface of that name.
    static func hints(name: String, index: Int, sysfsRoot: String) -> DeviceHints {
        guard !name.isEmpty, !name.contains("/" as Character), name != "." && name != ".." else { return .none }
        let directory = sysfsRoot + "/" + name
        guard let indexText = CheckedFile.text(directory + "/ifindex", limit: 64),
              Int(indexText.trimmingWhitespace()) == index
        else { return .none }
        var deviceType: String?
        if let uevent = CheckedFile.text(directory + "/uevent", limit: 16 * 1024) {
            for line in uevent.split(separator: "\n") where line.hasPrefix("DEVTYPE=") {
                deviceType = String(line.dropFirst("DEVTYPE=".count))
            }
        }
        let wireless = CheckedFile.isDirectory(directory + "/wireless")
            || CheckedFile.isDirectory(directory + "/phy80211")
        return DeviceHints(deviceType: deviceType, wireless: wireless)
    }
}

extension String {
    func trimmingWhitespace() -> String {
        let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" }
        guard let first = firstIndex(where: { !isSpace($0) }),
              let last = lastIndex(where: { !isSpace($0) })
        else { return "" }
        return String(self[first...last])
    }
}
