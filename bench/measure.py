#!/usr/bin/env python3
"""Runs a command N times; writes 'median_ms p90_ms median_rss_kib max_rss_kib last_exit'
to WORK/result. Each run is timed alone (os.wait4 gives that child's own peak RSS).
usage: measure.py WORK N COMMAND [ARGS...]"""
import os
import statistics
import subprocess
import sys
import time


def main():
    work, runs, command = sys.argv[1], int(sys.argv[2]), sys.argv[3:]
    walls, rsss, code = [], [], None
    for _ in range(runs):
        start = time.perf_counter()
        child = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        _, status, usage = os.wait4(child.pid, 0)
        walls.append((time.perf_counter() - start) * 1000)
        rsss.append(usage.ru_maxrss)
        code = os.waitstatus_to_exitcode(status)
    walls.sort()
    p90 = walls[min(len(walls) - 1, int(len(walls) * 0.9))]
    with open(os.path.join(work, "result"), "w") as out:
        out.write(f"{statistics.median(walls):.1f} {p90:.1f} {statistics.median(rsss):.0f} {max(rsss)} {code}\n")


if __name__ == "__main__":
    main()
