import Foundation
import NetprobeCore
import NetprobeLink
import Testing

@Suite("PathReader in a network namespace")
struct PathReaderTests {
    @Test func explore() throws {
        let snapshot = try withNamespace { ns in
            try ns.ip("link", "add", "d0", "type", "veth", "peer", "name", "d0p")
            try ns.ip("link", "set", "d0p", "up")
            try ns.ip("link", "set", "d0", "up")
            try ns.ip("link", "add", "br0", "type", "bridge")
            try ns.ip("addr", "add", "198.51.100.10/24", "dev", "d0")
            try ns.ip("addr", "add", "2001:db8:1::10/64", "dev", "d0", "nodad")
            try ns.ip("route", "add", "default", "via", "198.51.100.1", "dev", "d0", "metric", "100")
            try ns.ip("-6", "route", "add", "default", "via", "2001:db8:1::1", "dev", "d0", "metric", "300")
            try ns.ip("link", "add", "va", "type", "veth", "peer", "name", "vb")
            try ns.ip("link", "set", "va", "up")
            try ns.ip("addr", "add", "203.0.113.10/24", "dev", "va")
            try ns.ip("route", "add", "default", "via", "203.0.113.1", "dev", "va", "metric", "200")
            try ns.ip("route", "add", "blackhole", "default", "metric", "50")
            try ns.ip("-6", "route", "add", "unreachable", "default", "metric", "10")
            try ns.ip("route", "add", "default", "via", "198.51.100.2", "dev", "d0", "table", "100", "metric", "5")
            try ns.ip("route", "add", "default", "via", "198.51.100.3", "dev", "d0", "table", "local")
            try ns.ip("tuntap", "add", "tun0", "mode", "tun")
            return try ns.inside { try PathReader().snapshot() }
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        print(String(decoding: try encoder.encode(snapshot), as: UTF8.self))
    }
}
