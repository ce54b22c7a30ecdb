#!/usr/bin/env python3
"""What a running `netprobe watch` did, for the watch-* scenarios (lib/watch.sh): its checks as
they finish, and waits for its records and checks, each with a deadline.

    watch_events.py sample TEXTFILE GATEWAY_NS EVENTS RECORDS
        Until SIGTERM: at every change of watch's textfile (written after every check), one JSON
        line in EVENTS: the wall time, netprobe_checks_total and netprobe_lean_checks_total (0
        while absent), the bytes and packets the gateway's lan0 has carried in both directions
        (every header, ARP and DNS included, as bench/wire counts) and the records written so far.
    watch_events.py record RECORDS AFTER EXPR SECONDS [PID]
        Waits for the first record after line AFTER for which EXPR (Python, the record as `r`) is
        true; prints its line number (from 1). Exit 1 at the deadline, or once PID has ended.
    watch_events.py event EVENTS EXPR SECONDS [PID]
        The same for a line of EVENTS (its fields as names: checks, lean, bytes, t, ...);
        prints the line.
"""
import json
import re
import signal
import subprocess
import sys
import time


def metric(text, name):
    found = re.search(r"^%s (\S+)$" % re.escape(name), text, re.M)
    return int(float(found.group(1))) if found else 0


def wire(gateway):
    out = subprocess.run(["ip", "-n", gateway, "-s", "-j", "link", "show", "lan0"], capture_output=True, text=True,
                         check=True).stdout
    stats = json.loads(out)[0]["stats64"]
    return stats["rx"]["bytes"] + stats["tx"]["bytes"], stats["rx"]["packets"] + stats["tx"]["packets"]


def lines(path):
    try:
        with open(path, encoding="utf-8", errors="replace") as handle:
            return [line for line in handle.read().split("\n") if line.strip()]
    except FileNotFoundError:
        return []


def sample(textfile, gateway, events, records):
    stop = []
    signal.signal(signal.SIGTERM, lambda *_: stop.append(1))
    seen = None
    with open(events, "a", encoding="utf-8") as out:
        while not stop:
            try:
                with open(textfile, encoding="utf-8") as handle:
                    text = handle.read()
            except FileNotFoundError:
                text = None
            if text is not None and text != seen:
                seen = text
                size, packets = wire(gateway)
                out.write(json.dumps({"t": time.time(), "checks": metric(text, "netprobe_checks_total"),
                                      "lean": metric(text, "netprobe_lean_checks_total"), "bytes": size,
                                      "packets": packets, "records": len(lines(records))}) + "\n")
                out.flush()
            time.sleep(0.02)


def alive(pid):
    if pid is None:
        return True
    try:
        with open("/proc/%d/stat" % pid) as handle:
            return handle.read().rsplit(")", 1)[1].split()[0] != "Z"
    except (OSError, IndexError):
        return False


def wait(path, after, expr, seconds, pid, parse):
    deadline = time.monotonic() + seconds
    while True:
        for number, line in enumerate(lines(path)[after:], after + 1):
            try:
                item = parse(line)
            except ValueError:
                continue
            try:
                if eval(expr, {}, item):  # the scenario's own expression
                    return number, line
            except (KeyError, TypeError, AttributeError):
                continue
        if time.monotonic() > deadline or not alive(pid):
            return None, None
        time.sleep(0.05)


def main():
    command, args = sys.argv[1], sys.argv[2:]
    if command == "sample":
        sample(*args)
        return 0
    if command == "record":
        path, after, expr, seconds = args[0], int(args[1]), args[2], float(args[3])
        pid = int(args[4]) if len(args) == 5 else None
        number, _ = wait(path, after, expr, seconds, pid, lambda line: {"r": json.loads(line)})
        if number is None:
            return 1
        print(number)
        return 0
    if command == "event":
        path, expr, seconds = args[0], args[1], float(args[2])
        pid = int(args[3]) if len(args) == 4 else None
        _, line = wait(path, 0, expr, seconds, pid, json.loads)
        if line is None:
            return 1
        print(line)
        return 0
    print(__doc__, file=sys.stderr)
    return 64


if __name__ == "__main__":
    sys.exit(main())
