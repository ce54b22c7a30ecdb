#!/usr/bin/env python3
"""A DHCP server that answers each DHCPINFORM (RFC 2131 3.4) with a burst of what a client must
not take before the one answer it may: a DHCPACK for another transaction naming another API, a
BOOTREQUEST echoed back, a DHCPOFFER, a message cut short, then the real DHCPACK (option 114
URI, option 6 RESOLVER), then a second DHCPACK whose option 114 holds an escape sequence. Each goes to
ciaddr, port 68, as a server answers an INFORM. Nothing else is answered. Standard library only."""

import argparse
import socket
import struct

COOKIE = bytes([99, 130, 83, 99])


def reply(request: bytes, *, xid: bytes | None = None, op: int = 2, msg_type: int = 5,
          options: bytes = b"") -> bytes:
    header = bytearray(request[:236])
    header[0] = op
    if xid is not None:
        header[4:8] = xid
    return bytes(header) + COOKIE + bytes([53, 1, msg_type, 54, 4]) + SERVER + options + b"\xff"


def option(code: int, data: bytes) -> bytes:
    return bytes([code, len(data)]) + data


def main() -> None:
    global SERVER
    parser = argparse.ArgumentParser()
    parser.add_argument("--interface", required=True)
    parser.add_argument("--server", required=True)
    parser.add_argument("--uri", required=True)
    parser.add_argument("--resolver", required=True)
    args = parser.parse_args()
    SERVER = socket.inet_aton(args.server)
    sock = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_BROADCAST, 1)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_BINDTODEVICE, args.interface.encode())
    sock.bind(("0.0.0.0", 67))
    good = option(114, args.uri.encode()) + option(6, socket.inet_aton(args.resolver))
    while True:
        request, _ = sock.recvfrom(2048)
        if len(request) < 244 or request[0] != 1 or request[236:240] != COOKIE:
            continue
        if bytes([53, 1, 8]) not in request[240:260]:
            continue
        ciaddr = socket.inet_ntoa(request[12:16])
        xid = request[4:8]
        other = bytes([xid[0] ^ 0xFF]) + xid[1:]
        burst = [
            reply(request, xid=other, options=option(114, b"https://evil.example/api")),
            reply(request, op=1, options=option(114, b"https://evil.example/echo")),
            reply(request, msg_type=2, options=option(114, b"https://evil.example/offer")),
            reply(request, options=good)[:200],
            reply(request, options=good),
            # Too late: the first DHCPACK of the transaction is the answer.
            reply(request, options=option(114, b"https://evil.example/\x1b[2J")),
        ]
        for message in burst:
            sock.sendto(message, (ciaddr, 68))


if __name__ == "__main__":
    main()
