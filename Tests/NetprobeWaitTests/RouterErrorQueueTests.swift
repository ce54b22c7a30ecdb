import Foundation
@testable import NetprobeWire
@testable import NetprobeVerdict
@testable import NetprobeNetwork
import Testing

/// The ICMP errors routers send about a probe's connection, read from the socket's error
/// queue as libcurl closes it (CCurl/socket_ledger.c): a real router (the LAN namespace of
/// `DHCPInformSocketTests.LAN`, forwarding, with no route onward) answers the probe's SYN with
/// "network unreachable" from its own address. Nothing leaves the two namespaces.
@Suite(.serialized) struct RouterErrorQueueTests {
    typealias LAN = DHCPInformSocketTests.LAN

    @Test func aRoutersUnreachableIsReadWithItsAddress() throws {
        let lan = try LAN()
        defer { lan.close() }
        try Tool.run(Tool.ip, ["-n", lan.client, "route", "add", "default", "via", "198.51.100.1", "dev", "c0"])
        try Tool.run(Tool.ip, ["netns", "exec", lan.lan, "sysctl", "-qw", "net.ipv4.ip_forward=1"])
        let found: [String] = try lan.inClient {
            guard let runner = try? ProbeRunner() else { return ["no runner"] }
            let request = ProbeRequest(name: "beyond", url: "http://203.0.113.50/generate_204", timeout: 3)
            let results = runner.run([request], deadline: .now + .seconds(5)) { _ in true }
            let errors = runner.takeRouterErrors()
            return ["\(results.first?.transportError?.kind.rawValue ?? "none")"]
                + errors.map { "\($0.router) \($0.family) \($0.kind)" }
        }
        #expect(found.first == "unreachable", "\(found)")
        #expect(found.dropFirst().contains("198.51.100.1 ipv4 noRoute"), "the router's net unreachable, from its address: \(found)")
    }
}
