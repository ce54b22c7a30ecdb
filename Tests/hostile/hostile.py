#!/usr/bin/env python3
"""Runs the hostile-input corpus (cases_*.py) against the netprobe binary. Started by
Tests/hostile/run inside a private network namespace with probe_server.py on 127.0.0.1:8080.

Every case asserts, beyond its own expectations: the exit status, no death by signal, wall
time within its deadline, peak RSS (wait4's ru_maxrss) within its cap, and no raw control
byte in stdout or stderr (C0 but newline and tab, DEL, and C1 as UTF-8 U+0080-U+009F).
"""

import argparse
import json
import os
import re
import signal
import subprocess
import sys
import threading
import time
from dataclasses import dataclass, field
from typing import Callable, Optional

RAW_CONTROL = re.compile(rb"[\x00-\x08\x0b-\x1f\x7f]|\xc2[\x80-\x9f]")
# Environment variables a case must not inherit: proxies would reroute probes, the config
# lookup would change which probe set runs.
DROP_ENV = ("http_proxy", "https_proxy", "HTTPS_PROXY", "ALL_PROXY", "all_proxy", "NO_PROXY", "no_proxy",
            "NETPROBE_CONFIG")


@dataclass
class Case:
    name: str
    argv: object  # list of str/bytes, or a function of the context returning one
    status: int
    deadline: float = 5.0  # wall seconds, the whole run
    timeout: Optional[float] = None  # netprobe's own --timeout: the overrun is measured against it
    rss_mb: float = 64.0
    stdout: list = field(default_factory=list)  # substrings stdout must contain (str or bytes)
    stderr: list = field(default_factory=list)
    not_stdout: list = field(default_factory=list)
    json_clean: bool = False  # stdout is JSON (or JSON Lines): no control character in any string value
    check: Optional[Callable] = None  # (ctx, result) -> error text or None
    setup: Optional[Callable] = None  # (ctx) -> None, before the run
    env: dict = field(default_factory=dict)
    until: Optional[str] = None  # a branch whose work this case waits for: failures are reported, not counted
    kind: str = "cmdline"


@dataclass
class Result:
    status: Optional[int]
    signal: Optional[int]
    wall: float
    rss_mb: float
    stdout: bytes
    stderr: bytes
    killed: bool


class Context:
    def __init__(self, binary, root, server_log):
        self.bin, self.root, self.server_log = binary, root, server_log
        self.port = 8080
        self.dir = root
        # Helper processes a case's setup started (a hostile resolver): ended by PID after the case.
        self.spawned = []
        # What the corpus undoes when it ends (a namespace a case made), last first.
        self.cleanups = []

    def url(self, path):
        return "http://127.0.0.1:%d%s" % (self.port, path)

    def path(self, name):
        return os.path.join(self.dir, name)

    def write(self, name, data, mode="w"):
        with open(self.path(name), mode) as f:
            f.write(data)
        return self.path(name)

    def probes(self, paths, quorum=2, timeout=4, probe_timeout=None, name="probes.json", expect=None, operator="op%d"):
        """A probes.json whose probes (one operator each) ask probe_server for `paths`."""
        expects = [{"status": [204], "body": {"exact": ""}}, {"status": [200], "body": {"prefix": "success"}},
                   {"status": [200], "body": {"contains": "Success"}}]
        probes = [{"name": "p%d" % i, "operator": operator % i, "url": self.url(p), "expect": expect or expects[i % 3]}
                  for i, p in enumerate(paths)]
        doc = {"version": 1, "timeout": timeout, "probe_timeout": probe_timeout or timeout, "quorum": quorum,
               "probes": probes}
        return self.write(name, json.dumps(doc))


def run(case, ctx):
    ctx.dir = os.path.join(ctx.root, "cases", case.name)
    os.makedirs(ctx.dir, exist_ok=True)
    if case.setup:
        case.setup(ctx)
    argv = case.argv(ctx) if callable(case.argv) else case.argv
    env = {k: v for k, v in os.environ.items() if k not in DROP_ENV}
    env.update({"HOME": ctx.dir, "LC_ALL": "C.UTF-8"})
    env.update(case.env)
    env_from_dir = getattr(case, "env_from_dir", None)
    if env_from_dir:
        env.update(env_from_dir(ctx.dir))
    out_path, err_path = ctx.path("stdout"), ctx.path("stderr")
    with open(out_path, "wb") as out, open(err_path, "wb") as err:
        start = time.monotonic()
        proc = subprocess.Popen([ctx.bin] + list(argv), stdin=subprocess.DEVNULL, stdout=out, stderr=err,
                                env=env, cwd=ctx.dir, start_new_session=True)
        killed = []

        def kill():
            killed.append(True)
            try:
                os.killpg(proc.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
        # Past the deadline: a hang is then a failure with a name, not a stuck corpus (and a
        # file read without bound stops growing at a few GB).
        timer = threading.Timer(case.deadline + 3, kill)
        timer.start()
        _, status, usage = os.wait4(proc.pid, 0)
        wall = time.monotonic() - start
        timer.cancel()
        proc.returncode = 0  # reaped by wait4 above; Popen must not wait again
    try:
        os.killpg(proc.pid, signal.SIGKILL)  # hooks and other leftovers of the case
    except (ProcessLookupError, PermissionError):
        pass
    for helper in ctx.spawned:
        helper.kill()
        helper.wait()
    ctx.spawned.clear()
    with open(out_path, "rb") as f:
        stdout = f.read()
    with open(err_path, "rb") as f:
        stderr = f.read()
    return Result(status=os.WEXITSTATUS(status) if os.WIFEXITED(status) else None,
                  signal=os.WTERMSIG(status) if os.WIFSIGNALED(status) else None,
                  wall=wall, rss_mb=usage.ru_maxrss / 1024, stdout=stdout, stderr=stderr, killed=bool(killed))


def json_strings(value):
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for k, v in value.items():
            yield k
            yield from json_strings(v)
    elif isinstance(value, list):
        for v in value:
            yield from json_strings(v)


def problems(case, ctx, r):
    found = []
    if r.signal is not None:
        found.append("died of signal %d" % r.signal)
    elif r.status != case.status:
        found.append("exit status %s, expected %d" % (r.status, case.status))
    if r.wall > case.deadline:
        found.append("took %.2f s, deadline %.2f s" % (r.wall, case.deadline))
    if r.rss_mb > case.rss_mb:
        found.append("peak RSS %.1f MB, cap %.0f MB" % (r.rss_mb, case.rss_mb))
    for stream, data in (("stdout", r.stdout), ("stderr", r.stderr)):
        m = RAW_CONTROL.search(data)
        if m:
            found.append("raw control byte %r in %s at %d: %r" % (m.group(), stream, m.start(),
                                                                   data[max(0, m.start() - 30):m.start() + 10]))
    for stream, data, wanted in (("stdout", r.stdout, case.stdout), ("stderr", r.stderr, case.stderr)):
        for w in wanted:
            needle = w if isinstance(w, bytes) else w.encode()
            if needle not in data:
                found.append("%s lacks %r" % (stream, w if len(w) < 80 else w[:40] + "..." + w[-30:]))
    for w in case.not_stdout:
        if (w if isinstance(w, bytes) else w.encode()) in r.stdout:
            found.append("stdout has %r" % w)
    if case.json_clean and r.stdout.strip():
        try:
            docs = [json.loads(line) for line in r.stdout.decode().splitlines() if line.strip()]
        except ValueError as e:
            docs = []
            found.append("stdout is not JSON: %s" % e)
        for s in (s for d in docs for s in json_strings(d)):
            bad = [c for c in s if ord(c) < 0x20 or 0x7F <= ord(c) <= 0x9F]
            if bad:
                found.append("JSON string value with control %r: %r" % (bad[0], s[:80]))
                break
    if case.check and not found:
        try:
            error = case.check(ctx, r)
        except Exception as e:  # a check that cannot even read the output is a failure of the case
            error = "check raised %r" % e
        if error:
            found.append(error)
    return found


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--bin", required=True)
    parser.add_argument("--dir", required=True)
    parser.add_argument("--server-log", required=True)
    parser.add_argument("prefixes", nargs="*")
    args = parser.parse_args()
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    import cases_cmdline, cases_dns, cases_files, cases_server, cases_state  # noqa: E401 (after the path is set)
    cases = cases_cmdline.CASES + cases_files.CASES + cases_server.CASES + cases_dns.CASES + cases_state.CASES
    names = [c.name for c in cases]
    assert len(names) == len(set(names)), "duplicate case names"
    if args.prefixes:
        cases = [c for c in cases if any(c.name.startswith(p) for p in args.prefixes)]
    ctx = Context(args.bin, args.dir, args.server_log)
    passed = failed = skipped = 0
    peak = (0.0, "")
    overrun = (float("-inf"), "")
    kinds = {}
    for case in cases:
        r = run(case, ctx)
        found = problems(case, ctx, r)
        kinds[case.kind] = kinds.get(case.kind, 0) + 1
        if not found or not case.until:  # a case still waiting for another branch would only hide the rest
            peak = max(peak, (r.rss_mb, case.name))
            if case.timeout is not None:
                overrun = max(overrun, (r.wall - case.timeout, case.name))
        stats = "%.2f s, %.1f MB" % (r.wall, r.rss_mb)
        if not found:
            passed += 1
            print("PASS %-40s %s" % (case.name, stats), flush=True)
        elif case.until:
            skipped += 1
            print("SKIP %-40s %s; waits for the %s branch: %s" % (case.name, stats, case.until, "; ".join(found)),
                  flush=True)
        else:
            failed += 1
            print("FAIL %-40s %s: %s" % (case.name, stats, "; ".join(found)), flush=True)
    print("hostile: %s" % ", ".join("%d %s" % (n, k) for k, n in sorted(kinds.items())))
    print("hostile: peak RSS %.1f MB (%s); worst overrun of --timeout %+.2f s (%s); skipped cases left out"
          % (peak[0], peak[1], overrun[0] if overrun[1] else 0, overrun[1] or "none"))
    print("%d passed, %d failed, %d skipped" % (passed, failed, skipped))
    for cleanup in reversed(ctx.cleanups):
        cleanup()
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
