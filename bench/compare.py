#!/usr/bin/env python3
"""Runs command A and command B in turn, A B A B ..., N times each, so drift on a shared
machine hits both alike. Writes one line to OUT:
  'a_median_ms a_p90_ms b_median_ms b_p90_ms median_ratio a_peak_rss_kib b_peak_rss_kib a_exit b_exit'
median_ratio is the median of the per-pair ratios A/B. Each run is started with posix_spawn and
reaped with a blocking waitpid. Peak RSS comes from separate runs under GNU time (%M): a child
forked from this Python process would inherit Python's own high-water mark at exec.
usage: compare.py OUT N A [ARGS...] -- B [ARGS...]"""
import os
import shutil
import statistics
import subprocess
import sys
import time


def spawn(argv):
    path = shutil.which(argv[0]) or argv[0]
    actions = [(os.POSIX_SPAWN_OPEN, 1, os.devnull, os.O_WRONLY, 0),
               (os.POSIX_SPAWN_OPEN, 2, os.devnull, os.O_WRONLY, 0)]
    start = time.perf_counter()
    pid = os.posix_spawn(path, argv, os.environ, file_actions=actions)
    _, status = os.waitpid(pid, 0)
    return (time.perf_counter() - start) * 1000, os.waitstatus_to_exitcode(status)


def peak_rss(argv, runs=5):
    values = []
    for _ in range(runs):
        out = subprocess.run(["/usr/bin/time", "-f", "%M", "--"] + argv, stdout=subprocess.DEVNULL,
                             stderr=subprocess.PIPE, text=True).stderr.strip().splitlines()
        values.append(int(out[-1]))
    return int(statistics.median(values))


def p90(values):
    values = sorted(values)
    return values[min(len(values) - 1, int(len(values) * 0.9))]


def main():
    out, runs = sys.argv[1], int(sys.argv[2])
    rest = sys.argv[3:]
    split = rest.index("--")
    a, b = rest[:split], rest[split + 1:]
    spawn(a), spawn(b)  # warm-up: page cache, first-run effects
    a_ms, b_ms, ratios = [], [], []
    for _ in range(runs):
        ta, a_exit = spawn(a)
        tb, b_exit = spawn(b)
        a_ms.append(ta)
        b_ms.append(tb)
        ratios.append(ta / tb)
    with open(out, "w") as result:
        result.write(f"{statistics.median(a_ms):.1f} {p90(a_ms):.1f} {statistics.median(b_ms):.1f} {p90(b_ms):.1f} "
                     f"{statistics.median(ratios):.2f} {peak_rss(a)} {peak_rss(b)} {a_exit} {b_exit}\n")


if __name__ == "__main__":
    main()
