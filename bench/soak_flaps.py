#!/usr/bin/env python3
"""Flaps a veth link under a running `netprobe watch --json` and counts: every state is held
until watch has reported it (and at least --hold seconds, longer than watch's 100 ms debounce),
so each flap must give exactly two change records, offline then online. Afterwards the whole
record sequence is compared with the state sequence, record by record.

usage: soak_flaps.py --ns NS --link v0p --records FILE --pid PID [--flaps N] [--seconds S] [--hold S]
Prints progress (RSS, descriptors) every --every flaps and a summary; exit 1 on any mismatch.
"""

import argparse
import json
import os
import subprocess
import sys
import time


def rss_kb(pid):
    with open("/proc/%d/status" % pid) as f:
        return int(next(line for line in f if line.startswith("VmRSS:")).split()[1])


def fds(pid):
    return len(os.listdir("/proc/%d/fd" % pid))


class Records:
    """The records file, read incrementally."""

    def __init__(self, path):
        self.file = open(path)
        self.buffer = ""
        self.records = []

    def poll(self):
        self.buffer += self.file.read()
        *lines, self.buffer = self.buffer.split("\n")
        self.records += [json.loads(line) for line in lines if line.strip()]
        return len(self.records)

    def wait_for(self, count, deadline):
        """Waits (polling every 2 ms, bounded by `deadline`) until `count` records are in."""
        while self.poll() < count:
            if time.monotonic() > deadline:
                return False
            time.sleep(0.002)
        return True


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--ns", required=True)
    p.add_argument("--link", required=True)
    p.add_argument("--records", required=True)
    p.add_argument("--pid", type=int, required=True)
    p.add_argument("--flaps", type=int, default=10000)
    p.add_argument("--seconds", type=float, default=540)
    p.add_argument("--hold", type=float, default=0.12)
    p.add_argument("--every", type=int, default=500)
    a = p.parse_args()

    records = Records(a.records)
    if not records.wait_for(1, time.monotonic() + 10):
        print("soak: no start record", file=sys.stderr)
        return 1
    expected = [("start", records.records[0]["verdict"])]
    start_rss, start_fds = rss_kb(a.pid), fds(a.pid)
    print("start: VmRSS %d kB, %d open fds, first record %s" % (start_rss, start_fds, expected[0][1]))
    began = time.monotonic()
    flaps = 0
    samples = []
    failure = None
    while flaps < a.flaps and time.monotonic() - began < a.seconds and failure is None:
        for state, verdict in (("down", "offline"), ("up", "online")):
            flipped = time.monotonic()
            subprocess.run(["ip", "-n", a.ns, "link", "set", a.link, state], check=True)
            expected.append(("change", verdict))
            if not records.wait_for(len(expected), flipped + 10):
                failure = "no record within 10 s of link %s (flap %d)" % (state, flaps + 1)
                break
            got = records.records[len(expected) - 1]
            if got["verdict"] != verdict:
                failure = "record %d is %s/%s, the link is %s" % (len(expected), got["verdict"], got["reason"], state)
                break
            # Held longer than the debounce whatever the record's speed.
            remaining = a.hold - (time.monotonic() - flipped)
            if remaining > 0:
                time.sleep(remaining)
        else:
            flaps += 1
            if flaps % a.every == 0:
                samples.append((flaps, rss_kb(a.pid), fds(a.pid)))
                print("flap %d: VmRSS %d kB, %d open fds, %.0f s" % (flaps, samples[-1][1], samples[-1][2],
                                                                       time.monotonic() - began), flush=True)
    took = time.monotonic() - began
    # Anything after the last state is an extra record: give watch time to (wrongly) emit one.
    time.sleep(3)
    records.poll()
    got = [(r["event"], r["verdict"]) for r in records.records]
    if failure is None and got != expected:
        first = next((i for i, (g, e) in enumerate(zip(got, expected)) if g != e), min(len(got), len(expected)))
        failure = "record sequence differs from the state sequence at record %d: %d records for %d states" % (
            first + 1, len(got), len(expected))
    print("flaps: %d in %.0f s (%.0f ms per flap, every state held >= %.0f ms and until reported)"
          % (flaps, took, 1000 * took / max(flaps, 1), 1000 * a.hold))
    print("records: %d = 1 start + %d changes, for %d states: %s" % (len(got), len(got) - 1, len(expected),
                                                                    "match" if failure is None else "MISMATCH"))
    end_rss, end_fds = rss_kb(a.pid), fds(a.pid)
    print("end: VmRSS %d kB, %d open fds" % (end_rss, end_fds))
    print("json: " + json.dumps({"flaps": flaps, "seconds": round(took), "records": len(got),
                                 "states": len(expected), "match": failure is None,
                                 "rss_kb": [start_rss] + [s[1] for s in samples] + [end_rss],
                                 "fds": [start_fds] + [s[2] for s in samples] + [end_fds]}))
    if failure:
        print("soak: FAIL: " + failure, file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
