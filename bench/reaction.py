#!/usr/bin/env python3
"""Measures how fast `netprobe wait` answers once a default route appears.
Runs inside a namespace prepared by bench/run (veth np0 up with an address,
no default route, a probe server on loopback). The clock starts just before
`ip route add` and stops when a blocking waitpid returns the waiter's exit;
a watchdog kills a waiter that never answers. Writes 'median_ms p90_ms runs'
to WORK/result.
usage: reaction.py WORK N NETPROBE_BIN CONFIG"""
import os
import signal
import statistics
import subprocess
import sys
import threading
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from compare import p90  # noqa: E402


def main():
    work, runs, binary, config = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4]
    route = ["ip", "route", "add", "default", "via", "198.51.100.1", "dev", "np0"]
    reactions = []
    for _ in range(runs):
        subprocess.run(["ip", "route", "del", "default"], stderr=subprocess.DEVNULL)
        waiter = subprocess.Popen([binary, "wait", "--timeout", "10", "--config", config, "-q"], stdout=subprocess.DEVNULL)
        time.sleep(0.5)  # let it settle into waiting on netlink
        watchdog = threading.Timer(15, lambda: os.kill(waiter.pid, signal.SIGKILL))
        watchdog.start()
        start = time.perf_counter()
        subprocess.run(route, check=True)
        _, status = os.waitpid(waiter.pid, 0)
        reactions.append((time.perf_counter() - start) * 1000)
        watchdog.cancel()
        waiter.returncode = os.waitstatus_to_exitcode(status)
        if waiter.returncode != 0:
            raise SystemExit(f"reaction: wait exited {waiter.returncode}")
    with open(os.path.join(work, "result"), "w") as out:
        out.write(f"{statistics.median(reactions):.1f} {p90(reactions):.1f} {len(reactions)}\n")


if __name__ == "__main__":
    main()
