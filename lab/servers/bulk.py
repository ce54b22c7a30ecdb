#!/usr/bin/env python3
"""Steady bulk TCP traffic for the stall scenarios, standard library only.

server --port PORT: on every connection, the first byte says what to do: D, send data
  without end; U, read and discard without end; K, answer each request line with a
  30,000-byte response (a keep-alive HTTP connection); W, echo each line (a websocket); G
  (an HTTP GET, as curl sends it), an HTTP/1.1 200 whose body never ends: curl --limit-rate
  reads it at its own pace, slower than the link.
client --rate BYTES_PER_SECOND FLOW...: one thread per FLOW, written KIND@ADDRESS:PORT
  (KIND D for a download, U for an upload); each flow moves about RATE bytes a second in
  small writes, and reconnects half a second after its connection fails, so a flow lives as
  long as the process (the lab ends it by PID). KIND K: four requests 2 s apart on one
  connection, each response read whole, then the connection stays open and idle (finished
  keep-alive responses). KIND W: one exchange at once, then silence for 8 s, then a line every
  5 s (a websocket: after its peer's NAT entry expired, its messages go unanswered)."""

import argparse
import socket
import sys
import threading
import time

CHUNK = 16384
RESPONSE = 30000


def serve(port):
    listener = socket.create_server(("0.0.0.0", port), reuse_port=False, backlog=64)
    while True:
        connection, _ = listener.accept()
        threading.Thread(target=serve_one, args=(connection,), daemon=True).start()


def serve_one(connection):
    try:
        kind = connection.recv(1)
        if kind == b"D":
            data = b"x" * CHUNK
            while True:
                connection.sendall(data)
        elif kind == b"U":
            while connection.recv(65536):
                pass
        elif kind == b"G":
            request = kind
            while b"\r\n\r\n" not in request:
                more = connection.recv(4096)
                if not more:
                    return
                request += more
            connection.sendall(b"HTTP/1.1 200 OK\r\nContent-Type: application/octet-stream\r\n"
                               b"Content-Length: 1000000000000\r\n\r\n")
            data = b"x" * CHUNK
            while True:
                connection.sendall(data)
        elif kind in (b"K", b"W"):
            for line in connection.makefile("rb"):
                connection.sendall(b"r" * RESPONSE if kind == b"K" else line)
    except OSError:
        pass
    finally:
        connection.close()


def exchanges(kind, address, port):
    """K and W: request-response traffic, not a stream; once, then the connection idles."""
    with socket.create_connection((address, port), timeout=30) as connection:
        connection.settimeout(None)
        connection.sendall(kind.encode())
        if kind == "K":
            for _ in range(4):
                connection.sendall(b"GET\n")
                left = RESPONSE
                while left > 0:
                    got = connection.recv(left)
                    if not got:
                        return
                    left -= len(got)
                time.sleep(2)
            threading.Event().wait()
        connection.sendall(b"hello\n")
        connection.recv(64)
        time.sleep(8)
        while True:
            connection.sendall(b"ping\n")
            time.sleep(5)


def flow(kind, address, port, rate):
    if kind in ("K", "W"):
        try:
            exchanges(kind, address, port)
        except OSError as error:
            print("flow %s@%s: %s" % (kind, address, error), file=sys.stderr, flush=True)
        return
    pause = CHUNK / rate
    while True:
        try:
            with socket.create_connection((address, port), timeout=30) as connection:
                connection.settimeout(None)
                connection.sendall(kind.encode())
                data = b"y" * CHUNK
                while True:
                    if kind == "U":
                        connection.sendall(data)
                    elif not connection.recv(CHUNK):
                        break
                    time.sleep(pause)
        except OSError as error:
            print("flow %s@%s: %s" % (kind, address, error), file=sys.stderr, flush=True)
        time.sleep(0.5)


def main():
    parser = argparse.ArgumentParser()
    sub = parser.add_subparsers(dest="mode", required=True)
    server = sub.add_parser("server")
    server.add_argument("--port", type=int, default=9000)
    client = sub.add_parser("client")
    client.add_argument("--rate", type=float, default=1_000_000)
    client.add_argument("flows", nargs="+")
    args = parser.parse_args()
    if args.mode == "server":
        serve(args.port)
        return
    for spec in args.flows:
        kind, target = spec.split("@", 1)
        address, port = target.rsplit(":", 1)
        threading.Thread(target=flow, args=(kind, address, int(port), args.rate), daemon=True).start()
    threading.Event().wait()


if __name__ == "__main__":
    main()
