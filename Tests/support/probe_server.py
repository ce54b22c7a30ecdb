#!/usr/bin/env python3
"""Loopback HTTP server that answers like connectivity-check endpoints, captive
portals and hostile or broken servers. Test fixture for netprobe (unit tests and
the network-namespace lab). Python 3 standard library only.

Usage:
  probe_server.py [--bind ADDR] [--port N ...] [--portfile FILE] [--lifetime S]
                  [--all BEHAVIOUR] [--portal-url URL] [--tls CERT KEY] [-v]

  --port 0 picks a free port; repeat --port to listen on several ports.
  --portfile gets the bound ports, one per line in --port order ("-": on stdout), written
  atomically once every socket listens (tests poll for it: no port races).
  --all makes every path answer with one behaviour (a lab "portal" box).
  Exits on SIGTERM/SIGINT, or by itself after --lifetime seconds (default 600).

Behaviours are chosen by path (see BEHAVIOURS); query parameters:
  delay_ms=N   wait N ms before answering (any behaviour)
  ms=N         delay for /slow
  location=URL Location for /redirect
  count=N, size=N  for /big-headers
/echo answers 200 with the request head as its body (to check what a client sends).
Real probe paths (/hotspot-detect.html, /check_network_status.txt, ...) are
aliases, so the lab can stand in for the public endpoints.
"""

import argparse
import os
import random
import signal
import socket
import ssl
import struct
import sys
import threading
import time
import urllib.parse

HOLD_SECONDS = 60  # upper bound for /stall, /stall-body and /endless
HEAD_KEY = "\0head"  # the raw request head travels with the query; no real parameter has a NUL
STOP = threading.Event()
OPTIONS = argparse.Namespace(portal_url="http://portal.example/login?x=1", verbose=False, all=None)

APPLE_BODY = b"<HTML><HEAD><TITLE>Success</TITLE></HEAD><BODY>Success</BODY></HTML>"
PORTAL_PAGE = (b"<!DOCTYPE html><html><head><title>Hotel WiFi</title></head>"
               b"<body><h1>Welcome</h1><form action=\"/login\" method=\"post\">"
               b"<input name=\"room\"><button>Log in</button></form></body></html>")


def wispr_body(location):
    xml = ("<!--<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<WISPAccessGatewayParam "
           "xmlns:xsi=\"http://www.w3.org/2001/XMLSchema-instance\" "
           "xsi:noNamespaceSchemaLocation=\"http://www.acmewisp.com/WISPAccessGatewayParam.xsd\">\n"
           "<Redirect><AccessProcedure>1.0</AccessProcedure><AccessLocation>CDATA</AccessLocation>"
           "<LocationName>Lab Cafe</LocationName><LoginURL>%s</LoginURL>"
           "<MessageType>100</MessageType><ResponseCode>0</ResponseCode></Redirect>\n"
           "</WISPAccessGatewayParam>-->" % location)
    return ("<html><head><title>Redirect</title></head><body>%s"
            "<a href=\"%s\">log in</a></body></html>" % (xml, location)).encode()


def response(conn, status, reason, headers=(), body=b"", length=True):
    lines = ["HTTP/1.1 %d %s" % (status, reason), "Connection: close", "Cache-Control: no-store"]
    if length:
        lines.append("Content-Length: %d" % len(body))
    head = "\r\n".join(lines + ["%s: %s" % kv for kv in headers]) + "\r\n\r\n"
    conn.sendall(head.encode("latin-1") + body)


def hold(seconds=HOLD_SECONDS):
    STOP.wait(seconds)


def b_apple(conn, q):
    response(conn, 200, "OK", [("Content-Type", "text/html")], APPLE_BODY)


def b_204(conn, q):
    response(conn, 204, "No Content")


def b_success(conn, q):
    response(conn, 200, "OK", [("Content-Type", "text/plain")], b"success\n")


def b_msft(conn, q):
    response(conn, 200, "OK", [("Content-Type", "text/plain")], b"Microsoft Connect Test")


def b_nm(conn, q):
    response(conn, 200, "OK", [("Content-Type", "text/plain"), ("X-NetworkManager-Status", "online")],
             b"NetworkManager is online\n")


def b_redirect(conn, q):
    location = q.get("location", OPTIONS.portal_url)
    response(conn, 302, "Found", [("Location", location), ("Content-Type", "text/html")], wispr_body(location))


def b_redirect_relative(conn, q):
    response(conn, 302, "Found", [("Location", "/login")], b"<html><body>Moved</body></html>")


def b_511(conn, q):
    body = (b"<html><head><title>Network Authentication Required</title>"
            b"<meta http-equiv=\"refresh\" content=\"0; url=" + OPTIONS.portal_url.encode() + b"\"></head>"
            b"<body><p>You need to <a href=\"" + OPTIONS.portal_url.encode() + b"\">log in</a>.</p></body></html>")
    response(conn, 511, "Network Authentication Required", [("Content-Type", "text/html")], body)


def b_login_page(conn, q):
    response(conn, 200, "OK", [("Content-Type", "text/html")], PORTAL_PAGE)


def b_wrong(conn, q):
    response(conn, 200, "OK", [("Content-Type", "text/plain")], b"something else")


def b_empty200(conn, q):
    response(conn, 200, "OK", [("Content-Type", "text/plain")], b"")


def b_garbage(conn, q):
    # Never starts with "HTTP/", so it cannot be mistaken for a status line.
    conn.sendall(b"\x00\xffgarbage\x1b[0m" + bytes(random.getrandbits(8) for _ in range(512)))


def b_stall(conn, q):
    hold()


def b_stall_body(conn, q):
    conn.sendall(b"HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: 1000\r\n\r\n")
    hold()


def b_endless(conn, q):
    conn.sendall(b"HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nConnection: close\r\n\r\n")
    chunk = b"x" * 16384
    end = time.monotonic() + HOLD_SECONDS
    while not STOP.is_set() and time.monotonic() < end:
        conn.sendall(chunk)  # raises once the client hangs up


def b_slow(conn, q):
    STOP.wait(int(q.get("ms", "1000")) / 1000)
    b_204(conn, q)


def b_reset(conn, q):
    # SO_LINGER with a zero timeout turns close() into an RST.
    conn.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))


def b_control_chars(conn, q):
    location = "http://portal.example/\x1b[2J\x1b]0;owned\x07\x08\x7f"
    body = b"\x1b[31mred\x1b[0m \x00nul \x07bell \x08back \r\x1b]2;title\x07 \xc3\x28 end"
    response(conn, 200, "OK", [("Location", location), ("X-Evil", "\x1b[1mbold\x1b[0m")], body)


def b_big_headers(conn, q):
    count, size = int(q.get("count", "80")), int(q.get("size", "3000"))
    headers = [("X-Big-%03d" % i, "v" * size) for i in range(count)]
    response(conn, 200, "OK", [("Content-Type", "text/plain")] + headers, b"big")


def b_huge_header_line(conn, q):
    # One header line over libcurl's per-line limit (CURL_MAX_HTTP_HEADER, 100 KiB).
    response(conn, 200, "OK", [("Content-Type", "text/plain"), ("X-Huge", "h" * int(q.get("size", "150000")))], b"huge")


def b_conflicting_length(conn, q):
    # Two Content-Length headers that disagree (RFC 9112 6.3: unrecoverable framing error).
    conn.sendall(b"HTTP/1.1 200 OK\r\nConnection: close\r\nContent-Type: text/plain\r\n"
                 b"Content-Length: 7\r\nContent-Length: 24\r\n\r\nsuccess\nsomething else here")


def b_bad_encoding(conn, q):
    # Says gzip, is not: libcurl fails decoding (CURLE_BAD_CONTENT_ENCODING).
    body = b"this is not gzip at all, not even close"
    response(conn, 200, "OK", [("Content-Type", "text/plain"), ("Content-Encoding", "gzip")], body)


def b_bad_chunked(conn, q):
    conn.sendall(b"HTTP/1.1 200 OK\r\nConnection: close\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\nnot a chunk\r\n")


def b_bad_status_line(conn, q):
    # Starts like HTTP, then is not: a status line without a number.
    conn.sendall(b"HTTP/1.1 abc Bogus\r\nContent-Length: 0\r\n\r\n")


def b_status_like_header(conn, q):
    # A header named like a status line after Location: only a block's first line is a status line.
    response(conn, 302, "Found", [("Location", "http://portal.example/login"), ("HTTP/x", "y"),
                                  ("Content-Type", "text/html")], b"<html>moved</html>")


def b_control_headers(conn, q):
    # C0 and C1 (U+009B is CSI as UTF-8) in the headers netprobe reports: Location, Via, Content-Type.
    csi = "\xc2\x9b"  # latin-1 encoded by response(): the raw UTF-8 bytes of U+009B
    response(conn, 302, "Found", [("Location", "http://portal.example/\x1b[2J" + csi + "31m\x07"),
                                  ("Via", "1.1 evil\x1b]0;title\x07"), ("Content-Type", "text/html\x1b[5m" + csi + "0m")],
             b"<html>moved</html>")


def b_control_wispr(conn, q):
    # WISPr fields with raw C0/C1 bytes and C0/C1 character references.
    xml = ("<WISPAccessGatewayParam><Redirect><AccessProcedure>1.0\x1b[31m</AccessProcedure>"
           "<LocationName>Cafe &#x9b;31m&#27;[2J\xc2\x9b1m</LocationName>"
           "<LoginURL>http://portal.example/login?a=&#x9b;&#155;\x07</LoginURL>"
           "<AccessLocation>loc\x1b]0;x\x07</AccessLocation>"
           "<MessageType>100</MessageType><ResponseCode>0</ResponseCode></Redirect></WISPAccessGatewayParam>")
    body = ("<html><body><!--%s--></body></html>" % xml).encode("latin-1")
    response(conn, 302, "Found", [("Location", "http://portal.example/login"), ("Content-Type", "text/html")], body)


def b_echo(conn, q):
    response(conn, 200, "OK", [("Content-Type", "text/plain")], q[HEAD_KEY])


def b_not_found(conn, q):
    response(conn, 404, "Not Found", [("Content-Type", "text/plain")], b"not found")


def b_server_error(conn, q):
    response(conn, 503, "Service Unavailable", [("Content-Type", "text/plain")], b"try later")


BEHAVIOURS = {
    "/apple": b_apple, "/hotspot-detect.html": b_apple,
    "/generate_204": b_204, "/gen_204": b_204,
    "/success.txt": b_success, "/connecttest.txt": b_msft,
    "/nm": b_nm, "/check_network_status.txt": b_nm,
    "/redirect": b_redirect, "/redirect-relative": b_redirect_relative, "/511": b_511,
    "/login-page": b_login_page, "/wrong": b_wrong, "/empty-200": b_empty200,
    "/garbage": b_garbage, "/stall": b_stall, "/stall-body": b_stall_body, "/endless": b_endless,
    "/slow": b_slow, "/reset": b_reset, "/control-chars": b_control_chars,
    "/big-headers": b_big_headers, "/echo": b_echo, "/404": b_not_found, "/503": b_server_error,
    "/huge-header-line": b_huge_header_line, "/conflicting-length": b_conflicting_length,
    "/bad-encoding": b_bad_encoding, "/bad-chunked": b_bad_chunked, "/bad-status-line": b_bad_status_line,
    "/control-headers": b_control_headers, "/control-wispr": b_control_wispr,
    "/status-like-header": b_status_like_header,
}


def read_request(conn):
    """Reads up to the end of the request head (bounded); returns (target, head) or None."""
    data = b""
    while b"\r\n\r\n" not in data and len(data) < 65536:
        chunk = conn.recv(4096)
        if not chunk:
            return None
        data += chunk
    head = data.split(b"\r\n\r\n", 1)[0]
    parts = head.split(b"\r\n", 1)[0].split(b" ")
    return (parts[1].decode("latin-1"), head) if len(parts) >= 2 else None


def serve(conn, peer, tls):
    try:
        conn.settimeout(10)
        if tls is not None:
            conn = tls.wrap_socket(conn, server_side=True)  # in this thread: a slow handshake blocks no one
        request = read_request(conn)
        if request is None:
            return
        target, head = request
        conn.settimeout(HOLD_SECONDS + 5)
        url = urllib.parse.urlsplit(target)
        query = dict(urllib.parse.parse_qsl(url.query))
        query[HEAD_KEY] = head
        name = OPTIONS.all or url.path
        behaviour = BEHAVIOURS.get(name, b_not_found)
        if OPTIONS.verbose:
            print("%s %s -> %s" % (peer[0], target, behaviour.__name__), file=sys.stderr, flush=True)
        if "delay_ms" in query:
            STOP.wait(int(query["delay_ms"]) / 1000)
        behaviour(conn, query)
    except (OSError, ValueError, ssl.SSLError):
        pass  # clients hanging up mid-answer is what many tests do on purpose
    finally:
        conn.close()


def accept_loop(listener, tls):
    while not STOP.is_set():
        try:
            conn, peer = listener.accept()
        except OSError:
            continue  # the 0.5 s accept timeout, or the listener closed at shutdown
        threading.Thread(target=serve, args=(conn, peer, tls), daemon=True).start()


def listen(address, port):
    family = socket.AF_INET6 if ":" in address else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind((address, port))
    sock.listen(128)
    sock.settimeout(0.5)
    return sock


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--bind", default="127.0.0.1")
    parser.add_argument("--port", type=int, action="append")
    parser.add_argument("--portfile")
    parser.add_argument("--lifetime", type=float, default=600)
    parser.add_argument("--all", choices=sorted(BEHAVIOURS), help="answer every path with this behaviour")
    parser.add_argument("--portal-url", default=OPTIONS.portal_url)
    parser.add_argument("--tls", nargs=2, metavar=("CERT", "KEY"))
    parser.add_argument("-v", "--verbose", action="store_true")
    args = parser.parse_args()
    OPTIONS.portal_url, OPTIONS.verbose, OPTIONS.all = args.portal_url, args.verbose, args.all

    tls = None
    if args.tls:
        tls = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        tls.load_cert_chain(*args.tls)

    listeners = [listen(args.bind, port) for port in (args.port or [0])]
    for sig in (signal.SIGTERM, signal.SIGINT):
        signal.signal(sig, lambda *_: STOP.set())
    if args.portfile == "-":
        # The ports on stdout, one line each: a parent waits for that line, not for a file.
        sys.stdout.write("".join("%d\n" % s.getsockname()[1] for s in listeners))
        sys.stdout.flush()
    elif args.portfile:
        tmp = args.portfile + ".tmp"
        with open(tmp, "w") as f:
            f.write("".join("%d\n" % s.getsockname()[1] for s in listeners))
        os.rename(tmp, args.portfile)
    threads = [threading.Thread(target=accept_loop, args=(s, tls), daemon=True) for s in listeners]
    for t in threads:
        t.start()
    STOP.wait(args.lifetime)
    STOP.set()
    for t in threads:
        t.join(2)
    for s in listeners:
        s.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
