#!/usr/bin/env python3
"""A small explicit (forward) HTTP proxy, as CI runners and corporate hosts
have one: absolute-URI GET requests are relayed, CONNECT opens a tunnel.
Used by netprobe's loopback tests (Tests/NetprobeNetworkTests) and by the lab
(blocks.sh: forward_proxy). Python 3 standard library only.

Names in request targets resolve through this process's resolver: in the lab
that is the gateway namespace's resolv.conf, which points at the lab's DNS.

Usage:
  forward_proxy.py [--bind ADDR] [--port N] [--mode MODE] [--credentials USER:PASS]
                   [--login-url URL] [--ready FILE] [--pidfile FILE] [--lifetime S]

Modes:
  normal        relay GET, tunnel CONNECT
  auth          always answer 407 with Proxy-Authenticate: Basic realm="lab"
  credentials   like normal, but only with Proxy-Authorization for --credentials
                (407 with the challenge otherwise)
  portal        a guest network's proxy: every GET is redirected (302) to
                --login-url, every CONNECT refused with 403

--ready gets one line "ready PORT" once the socket listens: a FIFO or a file
(written atomically), so starters block on it instead of sleeping. The same
line goes to stdout. --pidfile gets this process's PID before that.
Every request is logged to stderr on arrival ("PEER METHOD TARGET (credentials)")
and when done ("PEER METHOD TARGET -> RESULT"); credentials are never logged. Exits on SIGTERM/SIGINT or after --lifetime seconds.
"""

import argparse
import base64
import os
import signal
import socket
import stat
import sys
import threading
import urllib.parse

STOP = threading.Event()
HOP_BY_HOP = {"proxy-authorization", "proxy-connection", "connection", "keep-alive", "te",
              "trailer", "transfer-encoding", "upgrade"}
REALM = "lab"
MAX_HEAD = 65536


def log(message):
    print(message, file=sys.stderr, flush=True)


def answer(conn, status, reason, headers=(), body=b""):
    lines = ["HTTP/1.1 %d %s" % (status, reason), "Connection: close", "Content-Length: %d" % len(body)]
    lines += ["%s: %s" % kv for kv in headers]
    conn.sendall(("\r\n".join(lines) + "\r\n\r\n").encode("latin-1") + body)


def challenge(conn):
    answer(conn, 407, "Proxy Authentication Required",
           [("Proxy-Authenticate", 'Basic realm="%s"' % REALM), ("Content-Type", "text/plain")],
           b"proxy authentication required\n")


def read_head(conn):
    """The request head (bounded) and whatever body bytes came with it, or None."""
    data = b""
    while b"\r\n\r\n" not in data:
        if len(data) > MAX_HEAD:
            return None
        chunk = conn.recv(4096)
        if not chunk:
            return None
        data += chunk
    head, rest = data.split(b"\r\n\r\n", 1)
    lines = head.decode("latin-1").split("\r\n")
    parts = lines[0].split(" ")
    if len(parts) != 3:
        return None
    headers = []
    for line in lines[1:]:
        name, sep, value = line.partition(":")
        if sep:
            headers.append((name.strip(), value.strip()))
    return parts[0].upper(), parts[1], parts[2], headers, rest


def header(headers, name):
    return next((v for n, v in headers if n.lower() == name), None)


def authorized(headers, options):
    if options.mode == "auth":
        return False
    if options.mode != "credentials":
        return True
    value = header(headers, "proxy-authorization") or ""
    scheme, _, token = value.partition(" ")
    if scheme.lower() != "basic":
        return False
    try:
        return base64.b64decode(token.strip(), validate=True).decode("utf-8") == options.credentials
    except (ValueError, UnicodeDecodeError):
        return False


def pump(src, dst):
    try:
        while chunk := src.recv(65536):
            dst.sendall(chunk)
    except OSError:
        pass
    finally:
        try:
            dst.shutdown(socket.SHUT_WR)
        except OSError:
            pass


def splice(client, upstream, first=b""):
    """Copies bytes both ways until both sides are done (or STOP)."""
    if first:
        upstream.sendall(first)
    back = threading.Thread(target=pump, args=(upstream, client), daemon=True)
    back.start()
    pump(client, upstream)
    back.join(60)


def split_host_port(authority, default_port):
    if authority.startswith("["):
        host, _, rest = authority[1:].partition("]")
        port = rest[1:] if rest.startswith(":") else ""
    else:
        host, _, port = authority.rpartition(":") if authority.count(":") == 1 else (authority, "", "")
    return host, int(port) if port else default_port


def connect(conn, host, port):
    """A connection to the far side, or None after answering 502 (as real proxies do)."""
    try:
        return socket.create_connection((host, port), timeout=10)
    except OSError as err:
        answer(conn, 502, "Bad Gateway", [("Content-Type", "text/plain")], ("%s\n" % err).encode())
        return None


def relay_get(conn, method, target, version, headers, rest, options):
    url = urllib.parse.urlsplit(target)
    if url.scheme != "http" or not url.hostname:
        answer(conn, 400, "Bad Request", body=b"absolute http:// URI expected\n")
        return "400"
    if options.mode == "portal":
        answer(conn, 302, "Found", [("Location", options.login_url), ("Content-Type", "text/html")],
               b"<html><body><a href=\"%s\">log in</a></body></html>" % options.login_url.encode())
        return "302 portal"
    upstream = connect(conn, url.hostname, url.port or 80)
    if upstream is None:
        return "502"
    with upstream:
        path = url.path or "/"
        if url.query:
            path += "?" + url.query
        kept = [(n, v) for n, v in headers if n.lower() not in HOP_BY_HOP]
        head = ["%s %s %s" % (method, path, version)] + ["%s: %s" % kv for kv in kept] + ["Connection: close"]
        upstream.settimeout(None)
        splice(conn, upstream, ("\r\n".join(head) + "\r\n\r\n").encode("latin-1") + rest)
    return "relayed"


def tunnel(conn, target, rest, options):
    if options.mode == "portal":
        answer(conn, 403, "Forbidden", [("Content-Type", "text/plain")], b"log in first\n")
        return "403 portal"
    host, port = split_host_port(target, 443)
    upstream = connect(conn, host, port)
    if upstream is None:
        return "502"
    with upstream:
        conn.sendall(b"HTTP/1.1 200 Connection established\r\n\r\n")
        upstream.settimeout(None)
        splice(conn, upstream, rest)
    return "tunnelled"


def serve(conn, peer, options):
    try:
        conn.settimeout(30)
        request = read_head(conn)
        if request is None:
            return
        method, target, version, headers, rest = request
        # Logged on arrival, before anything is relayed: whoever got an answer can find its line.
        log("%s %s %s (%s)" % (peer[0], method, target,
                               "credentials" if header(headers, "proxy-authorization") else "no credentials"))
        if not authorized(headers, options):
            challenge(conn)
            result = "407"
        elif method == "CONNECT":
            result = tunnel(conn, target, rest, options)
        elif method in ("GET", "HEAD"):
            result = relay_get(conn, method, target, version, headers, rest, options)
        else:
            answer(conn, 405, "Method Not Allowed")
            result = "405"
        log("%s %s %s -> %s" % (peer[0], method, target, result))
    except (OSError, ValueError) as err:
        log("%s: %s" % (peer[0], err))
    finally:
        conn.close()


def accept_loop(listener, options):
    while not STOP.is_set():
        try:
            conn, peer = listener.accept()
        except OSError:
            continue  # the accept timeout, or the listener closed at shutdown
        threading.Thread(target=serve, args=(conn, peer, options), daemon=True).start()


def announce(path, line):
    """The ready line: straight into a FIFO (the reader is waiting), atomically into a file."""
    if os.path.exists(path) and stat.S_ISFIFO(os.stat(path).st_mode):
        with open(path, "w") as f:
            f.write(line)
        return
    with open(path + ".tmp", "w") as f:
        f.write(line)
    os.rename(path + ".tmp", path)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--bind", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=0)
    parser.add_argument("--mode", choices=("normal", "auth", "credentials", "portal"), default="normal")
    parser.add_argument("--credentials", default="user:secret", help="USER:PASS for --mode credentials")
    parser.add_argument("--login-url", default="http://login.portal.test/login?venue=lab")
    parser.add_argument("--ready")
    parser.add_argument("--pidfile")
    parser.add_argument("--lifetime", type=float, default=600)
    options = parser.parse_args()

    family = socket.AF_INET6 if ":" in options.bind else socket.AF_INET
    listener = socket.socket(family, socket.SOCK_STREAM)
    listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    listener.bind((options.bind, options.port))
    listener.listen(128)
    listener.settimeout(0.5)
    for sig in (signal.SIGTERM, signal.SIGINT):
        signal.signal(sig, lambda *_: STOP.set())
    if options.pidfile:
        with open(options.pidfile, "w") as f:
            f.write("%d\n" % os.getpid())
    line = "ready %d\n" % listener.getsockname()[1]
    if options.ready:
        announce(options.ready, line)
    sys.stdout.write(line)
    sys.stdout.flush()
    thread = threading.Thread(target=accept_loop, args=(listener, options), daemon=True)
    thread.start()
    STOP.wait(options.lifetime)
    STOP.set()
    thread.join(2)
    listener.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
