import Foundation
@testable import NetprobeWire
@testable import NetprobeVerdict
@testable import NetprobeOutput
@testable import NetprobeReport
@testable import NetprobeSystem
@testable import NetprobeNetwork
@testable import NetprobeCheck
@testable import NetprobeWatch
import Testing

@Suite("Interface classification")
struct InterfaceClassifierTests {
    typealias Hints = InterfaceClassifier.DeviceHints

    // Kernel ABI ARPHRD_* values.
    static let ether: Int32 = 1, ppp: Int32 = 512, rawIP: Int32 = 519, tunnel: Int32 = 768, sit: Int32 = 776
    static let loopback: Int32 = 772, ieee80211: Int32 = 801, none: Int32 = 0xFFFE, infiniband: Int32 = 32

    @Test(arguments: [
        (loopback, nil, Hints.none, InterfaceType.loopback),
        (ether, nil, Hints.none, .ethernet),
        (ether, nil, Hints(deviceType: "wlan", wireless: false), .wifi),
        (ether, nil, Hints(deviceType: nil, wireless: true), .wifi),
        (ieee80211, nil, Hints.none, .wifi),
        (ether, nil, Hints(deviceType: "wwan", wireless: false), .cellular),
        (rawIP, nil, Hints.none, .cellular),
        (ppp, nil, Hints.none, .cellular),
        (none, "wwan", Hints.none, .cellular),
        (ether, "veth", Hints.none, .virtual),
        (ether, "bridge", Hints.none, .virtual),
        (ether, "dummy", Hints.none, .virtual),
        (ether, "macvlan", Hints.none, .virtual),
        (ether, "vlan", Hints.none, .virtual),
        (ether, "bond", Hints.none, .virtual),
        (none, "tun", Hints.none, .tunnel),
        (ether, "tun", Hints.none, .tunnel),  // tap devices are still tunnels
        (none, "wireguard", Hints.none, .tunnel),
        (tunnel, "ipip", Hints.none, .tunnel),
        (sit, "sit", Hints.none, .tunnel),
        (ether, "gretap", Hints.none, .tunnel),
        (none, nil, Hints.none, .tunnel),
        (infiniband, nil, Hints.none, .other),
    ] as [(Int32, String?, Hints, InterfaceType)])
    func classify(hardwareType: Int32, kind: String?, hints: Hints, expected: InterfaceType) {
        #expect(InterfaceClassifier.classify(hardwareType: hardwareType, kind: kind, hints: hints) == expected)
    }

    /// sysfs hints are read from a fake tree, and only trusted when the ifindex matches.
    @Test func sysfsHintsRequireMatchingIndex() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("np-link-sysfs-\(getpid())-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        let wlan = root.appendingPathComponent("wlan0")
        try FileManager.default.createDirectory(at: wlan.appendingPathComponent("wireless"), withIntermediateDirectories: true)
        try "7\n".write(to: wlan.appendingPathComponent("ifindex"), atomically: true, encoding: .utf8)
        try "DEVTYPE=wlan\nINTERFACE=wlan0\nIFINDEX=7\n".write(to: wlan.appendingPathComponent("uevent"), atomically: true, encoding: .utf8)

        #expect(InterfaceClassifier.hints(name: "wlan0", index: 7, sysfsRoot: root.path) == Hints(deviceType: "wlan", wireless: true))
        #expect(InterfaceClassifier.hints(name: "wlan0", index: 8, sysfsRoot: root.path) == .none)
        #expect(InterfaceClassifier.hints(name: "absent0", index: 7, sysfsRoot: root.path) == .none)
        #expect(InterfaceClassifier.hints(name: "../wlan0", index: 7, sysfsRoot: root.path) == .none)
    }

    @Test(arguments: [(0, .global), (200, .site), (253, .link), (254, .host), (255, .host), (100, .global)] as [(Int32, AddressScope)])
    func scopes(raw: Int32, expected: AddressScope) {
        #expect(NetlinkDump.scope(raw) == expected)
    }

    @Test func errorsDescribeTheLibnlCode() {
        let error = NetlinkError(code: -5, operation: "rtnl_link_alloc_cache")  // -NLE_NOMEM
        #expect(error.code == 5)
        #expect(error.description.hasPrefix("rtnl_link_alloc_cache: "))
        #expect(error.description.lowercased().contains("memory"))
    }
}
