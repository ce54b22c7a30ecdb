#!/usr/bin/env python3
"""A local stub resolver for the lab, as systemd-resolved's 127.0.0.53 stands in front of
the real servers: every UDP query on --listen is forwarded to --upstream and the answer
relayed back. With --first-delay S, the first query for each (name, type) is answered S
seconds late (a cold cache after boot, or a slow first hop); every later query for it at
once. A query the upstream never answers is never answered (the client times out).

usage: dns_stub.py --listen ADDR --upstream ADDR [--first-delay SECONDS]
Prints "listening" once bound; serves until killed. Logs each query on stderr.
Standard library only.
"""

import argparse
import socket
import sys
import threading
import time


def question_key(query):
    """(lower-cased name, type) of a query, or None when it cannot be read."""
    try:
        offset, labels = 12, []
        while query[offset] != 0:
            length = query[offset]
            labels.append(query[offset + 1:offset + 1 + length].lower())
            offset += 1 + length
        return b".".join(labels), query[offset + 1:offset + 3]
    except IndexError:
        return None


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--listen", required=True)
    parser.add_argument("--upstream", required=True)
    parser.add_argument("--first-delay", type=float, default=0.0)
    args = parser.parse_args()
    family = socket.AF_INET6 if ":" in args.listen else socket.AF_INET
    server = socket.socket(family, socket.SOCK_DGRAM)
    server.bind((args.listen, 53))
    upstream_family = socket.AF_INET6 if ":" in args.upstream else socket.AF_INET
    seen = set()
    lock = threading.Lock()
    print("listening", flush=True)

    def forward(query, client, due):
        sock = socket.socket(upstream_family, socket.SOCK_DGRAM)
        sock.settimeout(10)
        try:
            sock.sendto(query, (args.upstream, 53))
            answer, _ = sock.recvfrom(65535)
        except OSError as err:
            print("no answer from upstream: %s" % err, file=sys.stderr, flush=True)
            return
        finally:
            sock.close()
        time.sleep(max(0.0, due - time.monotonic()))
        server.sendto(answer, client)

    while True:
        query, client = server.recvfrom(65535)
        key = question_key(query)
        with lock:
            first = key is not None and key not in seen
            if key is not None:
                seen.add(key)
        delay = args.first_delay if first else 0.0
        print("query %r from %s, delay %.1f s" % (key, client[0], delay), file=sys.stderr, flush=True)
        threading.Thread(target=forward, args=(query, client, time.monotonic() + delay), daemon=True).start()


if __name__ == "__main__":
    main()
