#!/usr/bin/env python3
"""A Captive Portal API (RFC 8908) whose session runs out: the answer's
seconds-remaining counts down from SECONDS, starting at the first request, and
once it reaches zero the API says captive. nginx serves it over TLS
(capport.portal.test/countdown, proxied here to 127.0.0.1:PORT on the gateway).
Each answer is logged with the time left. Standard library only."""

import argparse
import json
import math
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

parser = argparse.ArgumentParser()
parser.add_argument("--seconds", type=float, required=True)
parser.add_argument("--port", type=int, default=10445)
args = parser.parse_args()

lock = threading.Lock()
ends_at = None  # set by the first request


class Handler(BaseHTTPRequestHandler):
    def do_GET(self):
        global ends_at
        with lock:
            now = time.monotonic()
            if ends_at is None:
                ends_at = now + args.seconds
            left = ends_at - now
        if left > 0:
            answer = {"captive": False, "user-portal-url": "https://login.portal.test/portal?venue=lab",
                      "seconds-remaining": math.ceil(left) if left > 1 else 1, "bytes-remaining": 5000000}
        else:
            answer = {"captive": True, "user-portal-url": "https://login.portal.test/portal?venue=lab"}
        body = (json.dumps(answer) + "\n").encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/captive+json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)
        print(f"{time.time():.3f} left {left:.3f} captive {answer['captive']}", flush=True)

    def log_message(self, *_):
        pass


ThreadingHTTPServer(("127.0.0.1", args.port), Handler).serve_forever()
