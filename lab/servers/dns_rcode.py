#!/usr/bin/env python3
"""A DNS server that answers every query with one response code (default
SERVFAIL), over UDP and TCP. The lab's "DNS is broken upstream" network:
dnsmasq cannot be told to fail every name. Standard library only."""

import argparse
import socket
import struct
import threading


def answer(query: bytes, rcode: int) -> bytes | None:
    """The query echoed back as a response: QR set, RD kept, RA set, no records."""
    if len(query) < 12:
        return None
    ident, flags, qdcount = struct.unpack("!HHH", query[:6])
    if flags & 0x8000:  # a response, not a query: ignore
        return None
    opcode_rd = flags & 0x7900  # opcode and RD bits
    out_flags = 0x8000 | opcode_rd | 0x0080 | (rcode & 0xF)
    # Keep the question section only (the header says 0 answers, 0 authority, 0 additional).
    question = query[12:]
    end = 0
    for _ in range(qdcount):
        while end < len(question) and question[end] != 0:
            end += 1 + question[end]
        end += 1 + 4  # root label, QTYPE, QCLASS
    return struct.pack("!HHHHHH", ident, out_flags, qdcount, 0, 0, 0) + question[:end]


def serve_udp(sock: socket.socket, rcode: int) -> None:
    while True:
        data, peer = sock.recvfrom(4096)
        reply = answer(data, rcode)
        if reply:
            sock.sendto(reply, peer)


def serve_tcp_client(conn: socket.socket, rcode: int) -> None:
    with conn:
        conn.settimeout(10)
        try:
            while True:
                head = conn.recv(2, socket.MSG_WAITALL)
                if len(head) < 2:
                    return
                (length,) = struct.unpack("!H", head)
                reply = answer(conn.recv(length, socket.MSG_WAITALL), rcode)
                if not reply:
                    return
                conn.sendall(struct.pack("!H", len(reply)) + reply)
        except OSError:
            return


def serve_tcp(sock: socket.socket, rcode: int) -> None:
    while True:
        conn, _ = sock.accept()
        threading.Thread(target=serve_tcp_client, args=(conn, rcode), daemon=True).start()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--rcode", type=int, default=2, help="response code (2 = SERVFAIL, 5 = REFUSED)")
    parser.add_argument("--listen", action="append", required=True, help="address to listen on (port 53)")
    parser.add_argument("--port", type=int, default=53)
    args = parser.parse_args()
    threads = []
    for addr in args.listen:
        family = socket.AF_INET6 if ":" in addr else socket.AF_INET
        udp = socket.socket(family, socket.SOCK_DGRAM)
        udp.bind((addr, args.port))
        tcp = socket.socket(family, socket.SOCK_STREAM)
        tcp.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        tcp.bind((addr, args.port))
        tcp.listen(16)
        threads.append(threading.Thread(target=serve_udp, args=(udp, args.rcode), daemon=True))
        threads.append(threading.Thread(target=serve_tcp, args=(tcp, args.rcode), daemon=True))
    for t in threads:
        t.start()
    for t in threads:
        t.join()


if __name__ == "__main__":
    main()
