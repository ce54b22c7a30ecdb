#!/usr/bin/env python3
"""A router that loses its way on for a moment: for the first data segment of each of the
client's TCP connections to the given ports (the first with PSH: the request, or TLS's
ClientHello), it sends the client an ICMP network unreachable (ICMPv6 no route) from the
gateway's own address, DELAY seconds later. The nft rule beside it (lib/blocks-fault.sh,
unreachable_once) drops that same segment, so the client's retransmission is the one that
goes through.

The delay is what makes it real: nft's own `reject` answers inside the client's send(),
while the client still holds its socket's lock, and Linux then keeps the error as a soft
one whatever the socket's options (TcpExtLockDroppedIcmps). A router's error arrives later,
on a socket nobody holds. The kernel here has no netem, hence this. Standard library only.
"""

import argparse
import socket
import struct
import sys
import threading

ETH_P_IP, ETH_P_IPV6 = 0x0800, 0x86DD
PSH, SYN, FIN, RST = 0x08, 0x02, 0x01, 0x04


def checksum(data: bytes) -> int:
    if len(data) % 2:
        data += b"\0"
    total = sum(struct.unpack(f"!{len(data) // 2}H", data))
    while total >> 16:
        total = (total & 0xFFFF) + (total >> 16)
    return ~total & 0xFFFF


def first_data(packet: bytes, version: int, ports: set[int], seen: set) -> tuple[str, bytes] | None:
    """The client's address and the packet, when it is a connection's first data segment."""
    if version == 4:
        if len(packet) < 20 or packet[0] >> 4 != 4 or packet[9] != 6:
            return None
        header = (packet[0] & 0x0F) * 4
        source, destination = socket.inet_ntop(socket.AF_INET, packet[12:16]), packet[16:20]
    else:
        if len(packet) < 40 or packet[0] >> 4 != 6 or packet[6] != 6:
            return None
        header = 40
        source, destination = socket.inet_ntop(socket.AF_INET6, packet[8:24]), packet[24:40]
    tcp = packet[header:]
    if len(tcp) < 20:
        return None
    sport, dport = struct.unpack("!HH", tcp[:4])
    flags = tcp[13]
    if dport not in ports or flags & (SYN | FIN | RST) or not flags & PSH:
        return None
    key = (source, sport, destination, dport)
    if key in seen:
        return None
    seen.add(key)
    return source, packet


def unreachable(version: int, gateway: str, client: str, packet: bytes) -> None:
    if version == 4:
        quoted = packet[: (packet[0] & 0x0F) * 4 + 8]
        message = struct.pack("!BBHI", 3, 0, 0, 0) + quoted
        message = message[:2] + struct.pack("!H", checksum(message)) + message[4:]
        with socket.socket(socket.AF_INET, socket.SOCK_RAW, socket.IPPROTO_ICMP) as out:
            out.bind((gateway, 0))
            out.sendto(message, (client, 0))
    else:
        # The kernel fills in an ICMPv6 checksum itself.
        message = struct.pack("!BBHI", 1, 0, 0, 0) + packet[:1232]
        with socket.socket(socket.AF_INET6, socket.SOCK_RAW, socket.IPPROTO_ICMPV6) as out:
            out.bind((gateway, 0))
            out.sendto(message, (client, 0))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--interface", required=True)
    parser.add_argument("--family", type=int, choices=(4, 6), required=True)
    parser.add_argument("--gateway", required=True, help="the address the errors come from")
    parser.add_argument("--ports", default="80,443")
    parser.add_argument("--delay", type=float, default=0.02)
    args = parser.parse_args()
    ports = {int(port) for port in args.ports.split(",")}
    kind = ETH_P_IP if args.family == 4 else ETH_P_IPV6
    tap = socket.socket(socket.AF_PACKET, socket.SOCK_DGRAM, socket.htons(kind))
    tap.bind((args.interface, kind))
    print("ready", flush=True)
    seen: set = set()
    while True:
        packet, address = tap.recvfrom(65535)
        if address[2] == socket.PACKET_OUTGOING:
            continue
        found = first_data(packet, args.family, ports, seen)
        if found:
            client, original = found
            threading.Timer(args.delay, unreachable, (args.family, args.gateway, client, original)).start()
            print(f"unreachable to {client} in {args.delay} s", flush=True)


if __name__ == "__main__":
    try:
        main()
    except KeyboardInterrupt:
        sys.exit(0)
