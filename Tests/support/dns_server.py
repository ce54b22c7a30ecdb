#!/usr/bin/env python3
"""A DNS server for tests that answers well or badly on purpose, on UDP and TCP.

usage: dns_server.py [--address ADDR] [--port N] [--ipv4 A] [--ipv6 A] MODE
Prints "listening PORT" once both sockets are bound (PORT: the one given, or the
kernel's choice for 0), then serves until killed (SIGTERM). Every query is logged
on stderr. Standard library only.

MODE (what every A/AAAA query gets):
  answer          the --ipv4/--ipv6 address (defaults 203.0.113.10, 2001:db8:2::10)
  truncated       TC set over UDP (no records); the real answer over TCP
  garbage         random bytes
  short           the first 7 bytes of a real answer
  wrong-id        a real answer with another ID
  wrong-question  a real answer for another name
  loop            an answer whose record owner is a compression pointer loop
  forward         a record owner pointing past the end of the message
  huge-count      ANCOUNT 65535 with one record present
  servfail        RCODE 2
  nxdomain        RCODE 3
  other-port      a real answer sent from another source port (must be ignored)
  silent          no answer at all
  drop-first      the first query for each name and type dropped (a lost datagram); the
                  rest answered well
  truncated-first-tcp-silent
                  the first name asked answered with TC over UDP, and its TCP retry
                  accepted and never answered; every other name answered well over UDP
"""

import os
import signal
import socket
import struct
import sys
import threading


def parse_question(query):
    """(id, name labels as bytes, qtype, question end offset) of a query."""
    qid = struct.unpack(">H", query[:2])[0]
    offset = 12
    labels = []
    while query[offset] != 0:
        length = query[offset]
        labels.append(query[offset + 1 : offset + 1 + length])
        offset += 1 + length
    qtype = struct.unpack(">H", query[offset + 1 : offset + 3])[0]
    return qid, labels, qtype, offset + 5


def answer(query, mode, ipv4, ipv6, tcp):
    qid, labels, qtype, end = parse_question(query)
    question = query[12:end]
    flags, records, ancount = 0x8180, b"", 0
    if qtype in (1, 28):
        data = socket.inet_pton(socket.AF_INET, ipv4) if qtype == 1 else socket.inet_pton(socket.AF_INET6, ipv6)
        records = b"\xc0\x0c" + struct.pack(">HHIH", qtype, 1, 60, len(data)) + data
        ancount = 1
    if mode == "truncated" and not tcp:
        flags, records, ancount = flags | 0x0200, b"", 0
    if mode == "wrong-id":
        qid ^= 0x5A5A
    if mode == "wrong-question":
        question = b"\x05other\x04test\x00" + question[-4:]
    if mode == "loop":
        # The record's owner points at itself.
        records = b"\xc0" + bytes([12 + len(question)]) + records[2:]
    if mode == "forward":
        records = b"\xc0\xff" + records[2:]
    if mode == "huge-count":
        ancount = 65535
    if mode == "servfail":
        flags, records, ancount = flags | 2, b"", 0
    if mode == "nxdomain":
        flags, records, ancount = flags | 3, b"", 0
    message = struct.pack(">HHHHHH", qid, flags, 1, ancount, 0, 0) + question + records
    if mode == "garbage":
        message = os.urandom(64)
    if mode == "short":
        message = message[:7]
    return message


def main(argv):
    address, port, ipv4, ipv6 = "127.0.0.1", 0, "203.0.113.10", "2001:db8:2::10"
    while len(argv) > 1 and argv[0].startswith("--"):
        option, value = argv[0], argv[1]
        argv = argv[2:]
        if option == "--address":
            address = value
        elif option == "--port":
            port = int(value)
        elif option == "--ipv4":
            ipv4 = value
        elif option == "--ipv6":
            ipv6 = value
    if len(argv) != 1:
        print(__doc__, file=sys.stderr)
        return 64
    mode = argv[0]
    family = socket.AF_INET6 if ":" in address else socket.AF_INET
    udp = socket.socket(family, socket.SOCK_DGRAM)
    udp.bind((address, port))
    port = udp.getsockname()[1]
    tcp = socket.socket(family, socket.SOCK_STREAM)
    tcp.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    tcp.bind((address, port))
    tcp.listen(16)
    other = socket.socket(family, socket.SOCK_DGRAM)
    other.bind((address, 0))
    signal.signal(signal.SIGTERM, lambda *_: os._exit(0))

    held = []  # connections accepted and never answered (truncated-first-tcp-silent)
    seen = set()  # (name, type) asked before (drop-first)
    first_name = []  # the first name asked (truncated-first-tcp-silent)

    def serve_tcp():
        while True:
            connection, _ = tcp.accept()
            if mode == "truncated-first-tcp-silent":
                held.append(connection)
                continue
            with connection:
                try:
                    length = struct.unpack(">H", connection.recv(2))[0]
                    query = b""
                    while len(query) < length:
                        chunk = connection.recv(length - len(query))
                        if not chunk:
                            break
                        query += chunk
                    reply = answer(query, mode, ipv4, ipv6, tcp=True)
                    connection.sendall(struct.pack(">H", len(reply)) + reply)
                except (OSError, IndexError, struct.error):
                    pass

    threading.Thread(target=serve_tcp, daemon=True).start()
    print(f"listening {port}", flush=True)
    while True:
        query, peer = udp.recvfrom(4096)
        try:
            print(f"query from {peer[0]} ({len(query)} bytes)", file=sys.stderr, flush=True)
            if mode == "silent":
                continue
            _, labels, qtype, _ = parse_question(query)
            key = (b".".join(labels).lower(), qtype)
            if mode == "drop-first" and key not in seen:
                seen.add(key)
                continue
            if mode == "truncated-first-tcp-silent":
                if not first_name:
                    first_name.append(key[0])
                reply = answer(query, "truncated" if key[0] == first_name[0] else "answer", ipv4, ipv6, tcp=False)
                udp.sendto(reply, peer)
                continue
            reply = answer(query, "answer" if mode == "drop-first" else mode, ipv4, ipv6, tcp=False)
            (other if mode == "other-port" else udp).sendto(reply, peer)
        except (IndexError, struct.error, OSError):
            continue


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
