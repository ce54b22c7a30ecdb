#!/usr/bin/env python3
"""Runs a command while recording the TCP packets on the network namespace's loopback, then
writes one line per packet to OUT, in the order they were sent:

    CLIENT_PORT DIRECTION FLAGS PAYLOAD_BYTES

DIRECTION is ">" for a packet to one of the server PORTS and "<" for one from them; FLAGS are
the TCP flags set, as letters from "SFRPA" ("SA" for a SYN-ACK). Each packet is recorded once
(as it leaves). Test fixture for the NetprobeCLITests: run it inside netns_run.sh, as root.

usage: lo_capture.py OUT PORT[,PORT...] -- COMMAND [ARG...]
Exit status: COMMAND's (the capture's own failure is 125, as netns_run.sh's set-up failures).
"""
import select
import socket
import struct
import subprocess
import sys

ETH_P_ALL = 0x0003
FLAG_LETTERS = ((0x02, "S"), (0x01, "F"), (0x04, "R"), (0x08, "P"), (0x10, "A"))


def tcp_segment(frame):
    """(source port, destination port, flags, payload bytes) of a TCP packet, else None."""
    ip = frame[14:]  # loopback frames carry an all-zero Ethernet header
    if len(ip) < 20:
        return None
    version = ip[0] >> 4
    if version == 4:
        header, protocol, length = (ip[0] & 0x0F) * 4, ip[9], struct.unpack("!H", ip[2:4])[0]
    elif version == 6 and len(ip) >= 40:
        header, protocol, length = 40, ip[6], 40 + struct.unpack("!H", ip[4:6])[0]
    else:
        return None
    tcp = ip[header:]
    if protocol != 6 or len(tcp) < 20:
        return None
    source, destination = struct.unpack("!HH", tcp[:4])
    return source, destination, tcp[13], length - header - (tcp[12] >> 4) * 4


def main():
    if len(sys.argv) < 5 or "--" not in sys.argv:
        print(__doc__, file=sys.stderr)
        return 125
    out, ports = sys.argv[1], {int(port) for port in sys.argv[2].split(",")}
    command = sys.argv[sys.argv.index("--") + 1:]
    sniffer = socket.socket(socket.AF_PACKET, socket.SOCK_RAW, socket.htons(ETH_P_ALL))
    sniffer.bind(("lo", 0))
    sniffer.setblocking(False)
    lines = []

    def drain():
        while True:
            try:
                frame, address = sniffer.recvfrom(65535)
            except BlockingIOError:
                return
            if address[2] != socket.PACKET_OUTGOING:
                continue  # the same packet, as lo receives it
            segment = tcp_segment(frame)
            if segment is None:
                continue
            source, destination, flags, payload = segment
            if destination in ports:
                client, direction = source, ">"
            elif source in ports:
                client, direction = destination, "<"
            else:
                continue
            letters = "".join(letter for bit, letter in FLAG_LETTERS if flags & bit)
            lines.append(f"{client} {direction} {letters} {payload}\n")

    child = subprocess.Popen(command)
    while child.poll() is None:
        select.select([sniffer], [], [], 0.05)
        drain()
    drain()
    with open(out, "w") as handle:
        handle.writelines(lines)
    return child.returncode


if __name__ == "__main__":
    sys.exit(main())
