#!/usr/bin/env python3
"""Runs a command N times; writes 'median_ms p90_ms median_rss_kib max_rss_kib last_exit'
to WORK/result. Wall time: posix_spawn to a blocking waitpid, each run alone. Peak RSS:
separate runs under GNU time (%M), since a child of this Python process would inherit
Python's own high-water mark at exec.
usage: measure.py WORK N COMMAND [ARGS...]"""
import os
import statistics
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from compare import p90, spawn  # noqa: E402


def main():
    work, runs, command = sys.argv[1], int(sys.argv[2]), sys.argv[3:]
    walls, code = [], None
    for _ in range(runs):
        wall, code = spawn(command)
        walls.append(wall)
    rsss = []
    for _ in range(min(runs, 5)):
        out = subprocess.run(["/usr/bin/time", "-f", "%M", "--"] + command, stdout=subprocess.DEVNULL,
                             stderr=subprocess.PIPE, text=True).stderr.strip().splitlines()
        rsss.append(int(out[-1]))
    with open(os.path.join(work, "result"), "w") as out:
        out.write(f"{statistics.median(walls):.1f} {p90(walls):.1f} {statistics.median(rsss):.0f} {max(rsss)} {code}\n")


if __name__ == "__main__":
    main()
