@testable import NetprobeWire
@testable import NetprobeLinkState
@testable import NetprobeVerdict
@testable import NetprobeOutput
@testable import NetprobeReport

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

// A lease file as another daemon (or an attacker with write access to its directory) left it,
// or a datagram on UDP port 68 (alone, or with its IP and UDP headers as a packet socket sees
// it): the same bytes read as a dhcpcd binary lease, an answer to a
// DHCPINFORM, a dhclient lease file, a networkd or resolved state file and NetworkManager's
// device state. Whatever comes, each reader ends, and what it gives is bounded by
// what it was given: a URI has no control bytes or spaces, resolvers are four bytes each, a
// dhclient lease with no readable expiry is never trusted, and the resolvers kept are unicast
// addresses of other hosts with no zone but an interface name.
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
    // The answer to a DHCPINFORM, for the transaction, client, hardware address and server the
    // bytes themselves carry (so the fuzzer reaches past every check): only a DHCPACK from the
    // expected server for our client is taken, and what it gives is bounded like a lease's.
    if bytes.count >= 240 {
        let xid = bytes[4..<8].reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
        let server = DHCPMessage.options(bytes)?[54].flatMap { $0.count == 4 ? $0 : nil } ?? [198, 51, 100, 1]
        let expected = DHCPMessage.InformExpectation(transaction: xid, clientAddress: Array(bytes[12..<16]),
                                                     hardwareAddress: Array(bytes[28..<34]), server: server)
        if case .success(let answer) = DHCPMessage.informAnswer(bytes, from: server, expected: expected) {
            precondition(DHCPMessage.options(bytes)?[53] == [5], "an answer that is not a DHCPACK")
            precondition(DHCPMessage.options(bytes)?[54] == server, "an answer from another server")
            if let uri = answer.captivePortal {
                precondition(uri.utf8.allSatisfy { $0 >= 0x21 && $0 != 0x7F }, "a control byte or space in a URI")
            }
            precondition(answer.nameServers.allSatisfy { IPAddressText.address($0, octets: .strict)?.count == 4 })
            usableOnly(answer.nameServers)
        }
        if case .success = DHCPMessage.informAnswer(bytes, from: [203, 0, 113, 9], expected: expected) {
            precondition(server == [203, 0, 113, 9], "an answer taken from a source other than the server")
        }
    }
    // The same bytes as a packet socket's IPv4 packet: what it gives lies inside what it was
    // given, and its payload is read as a DHCP answer like a UDP socket's datagram.
    for ready in [true, false] {
        guard let packet = IPv4UDPPacket(bytes, checksumReady: ready) else { continue }
        precondition(packet.source.count == 4 && packet.destination.count == 4)
        precondition(packet.payload.count <= bytes.count - 28, "a payload longer than the packet")
        if packet.payload.count >= 240 {
            let xid = packet.payload[4..<8].reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
            let expected = DHCPMessage.InformExpectation(transaction: xid, clientAddress: packet.destination,
                                                         hardwareAddress: nil, server: packet.source)
            _ = DHCPMessage.informAnswer(packet.payload, from: packet.source, expected: expected)
        }
    }
    // dhcpcd's DHCPv6 lease: addresses are sixteen bytes, resolvers too.
    if let options = DHCPv6Message.options(bytes) {
        if let uri = DHCPv6Message.captivePortal(options) {
            precondition(uri.utf8.allSatisfy { $0 >= 0x21 && $0 != 0x7F }, "a control byte or space in a URI")
        }
        for text in (DHCPv6Message.nameServers(options) ?? []) + DHCPv6Message.leasedAddresses(options).map(\.address) {
            precondition(IPAddressText.address(text, octets: .strict)?.count == 16, "not an IPv6 address")
        }
    }
    let text = String(decoding: bytes, as: UTF8.self)
    let now = Date(timeIntervalSince1970: 1_795_543_200)
    _ = DHCPMessage.yourAddress(bytes)
    for lease in DhclientLease.blocks(in: text) {
        // No readable expiry is never "never expires".
        if lease.expiry == .unknown { precondition(lease.expired(now: now), "an unknown expiry trusted") }
        if let uri = lease.captivePortal {
            precondition(uri.utf8.allSatisfy { $0 >= 0x21 && $0 != 0x7F }, "a control byte or space in a URI")
        }
        usableOnly(lease.nameServers ?? [])
    }
    // networkd's Describe (JSON): announced servers are addresses, a URI has no control bytes.
    if let described = NetworkdAnswer(describe: bytes) {
        precondition(described.announced.allSatisfy { IPAddressText.address($0, octets: .strict) != nil }, "not an address")
        if let uri = described.captivePortal {
            precondition(uri.utf8.allSatisfy { $0 >= 0x21 && $0 != 0x7F }, "a control byte or space in a URI")
        }
    }
    // NetworkManager's device state: what it gives is what the text held, resolvers filtered.
    let state = NetworkManagerDeviceState(text)
    usableOnly(state.servers)
    for key in ["CAPTIVE_PORTAL", "DNS", "ADDRESS", "LIFETIME", "SERVERS", "DNS_OVER_TLS"] {
        if let value = KeyValueState.value(key, in: text) {
            precondition(!value.isEmpty)
            usableOnly(value.split(separator: " ").map(String.init))
        }
    }
    return 0
}

/// What the resolver filter keeps is unicast, another host's, and any zone an interface name.
private func usableOnly(_ servers: [String]) {
    for server in ResolverAddress.filter(servers) {
        guard let (bytes, zone) = ResolverAddress.parse(server) else { preconditionFailure("kept but not parsed") }
        precondition(ResolverAddress.isUnicast(bytes), "a resolver that is not unicast: \(server)")
        precondition(!server.unicodeScalars.contains { $0.value < 0x21 || (0x7F...0x9F).contains($0.value) },
                     "a control byte in a resolver")
        if let zone { precondition(bytes[0] == 0xFE && zone.utf8.count <= 15, "a zone off link-local: \(server)") }
    }
}
