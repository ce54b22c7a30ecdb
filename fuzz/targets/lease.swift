@testable import NetprobeWire
@testable import NetprobeVerdict
@testable import NetprobeOutput
@testable import NetprobeReport

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

// A lease file as another daemon (or an attacker with write access to its directory) left it:
// the same bytes read as a dhcpcd binary lease, a dhclient lease file and a networkd or
// NetworkManager state file. Whatever comes, each reader ends, and what it gives is bounded by
// what it was given: a URI has no control bytes or spaces, resolvers are four bytes each.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzLease(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    if let options = DHCPMessage.options(bytes) {
        if let uri = DHCPMessage.captivePortal(options) {
            precondition(uri.utf8.allSatisfy { $0 >= 0x21 && $0 != 0x7F }, "a control byte or space in a URI")
        }
        if let servers = DHCPMessage.nameServers(options) {
            precondition(servers.allSatisfy { IPAddressText.address($0, octets: .strict)?.count == 4 }, "not an IPv4 address")
        }
        _ = DHCPMessage.leaseTime(options)
    }
    let text = String(decoding: bytes, as: UTF8.self)
    let now = Date(timeIntervalSince1970: 1_795_543_200)
    for lease in DhclientLease.blocks(in: text) {
        _ = lease.expired(now: now)
        if let uri = lease.captivePortal {
            precondition(uri.utf8.allSatisfy { $0 >= 0x21 && $0 != 0x7F }, "a control byte or space in a URI")
        }
    }
    for key in ["CAPTIVE_PORTAL", "DNS", "ADDRESS"] {
        if let value = KeyValueState.value(key, in: text) { precondition(!value.isEmpty) }
    }
    return 0
}
