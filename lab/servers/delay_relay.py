#!/usr/bin/env python3
"""A transparent TCP relay that makes servers slow: the kernel here has no
netem, so the lab redirects the client's connections (nft `redirect`) to this
relay, which waits, then connects to the original destination (read back with
SO_ORIGINAL_DST) and copies bytes both ways. The client's connect succeeds at
once; its first byte of answer (or TLS ServerHello) arrives after the delay.

The delay is fixed per destination (address and port), spread over MIN..MAX,
so runs are reproducible. Standard library only."""

import argparse
import ipaddress
import socket
import struct
import threading
import time
import zlib

SO_ORIGINAL_DST = 80  # same number for IPv4 (SOL_IP) and IPv6 (SOL_IPV6, IP6T_SO_ORIGINAL_DST)


def original_destination(conn: socket.socket) -> tuple[str, int]:
    if conn.family == socket.AF_INET6:
        raw = conn.getsockopt(socket.SOL_IPV6, SO_ORIGINAL_DST, 28)
        port = struct.unpack("!H", raw[2:4])[0]
        return str(ipaddress.IPv6Address(raw[8:24])), port
    raw = conn.getsockopt(socket.SOL_IP, SO_ORIGINAL_DST, 16)
    port = struct.unpack("!H", raw[2:4])[0]
    return str(ipaddress.IPv4Address(raw[4:8])), port


def delay_for(addr: str, port: int, low: float, high: float) -> float:
    spread = zlib.crc32(f"{addr}:{port}".encode()) % 1000 / 999
    return low + (high - low) * spread


def pump(src: socket.socket, dst: socket.socket) -> None:
    try:
        while chunk := src.recv(65536):
            dst.sendall(chunk)
        dst.shutdown(socket.SHUT_WR)
    except OSError:
        pass


def relay(conn: socket.socket, low: float, high: float) -> None:
    with conn:
        try:
            addr, port = original_destination(conn)
        except OSError as err:
            print(f"no original destination: {err}", flush=True)
            return
        wait = delay_for(addr, port, low, high)
        print(f"{conn.getpeername()[0]} -> [{addr}]:{port} after {wait:.2f} s", flush=True)
        time.sleep(wait)
        try:
            upstream = socket.create_connection((addr, port), timeout=10)
        except OSError as err:
            print(f"upstream [{addr}]:{port}: {err}", flush=True)
            return
        with upstream:
            upstream.settimeout(None)
            back = threading.Thread(target=pump, args=(upstream, conn), daemon=True)
            back.start()
            pump(conn, upstream)
            back.join(timeout=30)


def serve(listener: socket.socket, low: float, high: float) -> None:
    while True:
        conn, _ = listener.accept()
        threading.Thread(target=relay, args=(conn, low, high), daemon=True).start()


def listener_for(spec: str) -> socket.socket:
    host, _, port = spec.rpartition(":")
    host = host.strip("[]")
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    if family == socket.AF_INET6:
        sock.setsockopt(socket.IPPROTO_IPV6, socket.IPV6_V6ONLY, 1)
    sock.bind((host, int(port)))
    sock.listen(64)
    return sock


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--delay", nargs=2, type=float, metavar=("MIN", "MAX"), default=(1.0, 2.0))
    parser.add_argument("--listen", action="append", required=True, help="ADDR:PORT, IPv6 as [ADDR]:PORT")
    args = parser.parse_args()
    low, high = args.delay
    threads = [
        threading.Thread(target=serve, args=(listener_for(spec), low, high), daemon=True)
        for spec in args.listen
    ]
    for t in threads:
        t.start()
    for t in threads:
        t.join()


if __name__ == "__main__":
    main()
