"""Hostile state files: what `watch --state-directory DIR` finds in DIR/networks.json (written
by an older or newer netprobe, cut short by a crash, replaced by anything at all). Each is said
once on stderr, escaped, and ignored whole or entry by entry; watch checks on, bounded in time
and memory, and ends with status 0 on SIGTERM after its first check (its --textfile written)."""

import json
import os
import signal
import threading
import time

from hostile import Case

ESC = "\x1b"
GOOD = {"id": "0123456789ab", "name": "home.example", "last_seen": "2026-11-29T06:00:00.000Z",
        "last_proven": "2026-11-29T06:00:00.000Z", "verdict": "online", "reason": "probes-validated",
        "open_streak": 3, "portal_url": None, "portal_api": None, "inform_answers": None,
        "inform_portal_api": None, "intercepted": []}


def memory(*entries, version=1):
    return json.dumps({"version": version, "networks": list(entries)})


def entry(**overrides):
    e = dict(GOOD)
    e.update(overrides)
    return e


def stop_after_first_check(ctx, textfile):
    """SIGTERM to the case's watch (found by its working directory, the case's own) once its
    textfile exists: the first check is done. Bounded: gives up after 10 s (the case's deadline
    then fails it)."""
    case_dir = ctx.dir

    def watcher():
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            if os.path.exists(textfile):
                for pid in filter(str.isdigit, os.listdir("/proc")):
                    try:
                        if os.readlink("/proc/%s/cwd" % pid) == case_dir and \
                                os.path.realpath("/proc/%s/exe" % pid) == os.path.realpath(ctx.bin):
                            os.kill(int(pid), signal.SIGTERM)
                            return
                    except OSError:
                        continue
            time.sleep(0.02)
    threading.Thread(target=watcher, daemon=True).start()


def state_case(name, write, stderr=(), deadline=5, rss_mb=64):
    """`watch` over DIR/networks.json as `write(ctx, path)` leaves it."""
    def setup(ctx):
        state = ctx.path("state")
        os.makedirs(state, exist_ok=True)
        write(ctx, os.path.join(state, "networks.json"))
        ctx.probes(["/generate_204", "/success.txt"])
        stop_after_first_check(ctx, ctx.path("watch.prom"))

    def argv(ctx):
        return ["watch", "--quiet", "--interval", "0.1", "--timeout", "3", "--config", ctx.path("probes.json"),
                "--state-directory", ctx.path("state"), "--textfile", ctx.path("watch.prom")]
    return Case(name, argv, 0, deadline=deadline, setup=setup, stderr=list(stderr), rss_mb=rss_mb, kind="networks.json")


def text(content, mode="w"):
    def write(ctx, path):
        with open(path, mode) as f:
            f.write(content)
    return write


def huge(ctx, path):
    # 8 MiB of one valid-looking string: refused by size before it is parsed.
    with open(path, "w") as f:
        f.write('{"version":1,"networks":[{"id":"0123456789ab","name":"' + "a" * (8 << 20) + '"}]}')


def sparse(ctx, path):
    with open(path, "wb") as f:
        f.truncate(1 << 30)


def fifo(ctx, path):
    os.mkfifo(path)


def symlink(ctx, path):
    os.symlink("/etc/passwd", path)


VALID = memory(GOOD)

CASES = [
    state_case("state-truncated", text(VALID[:len(VALID) // 2]), stderr=["networks.json", "ignored"]),
    state_case("state-empty", text(""), stderr=["networks.json", "ignored"]),
    state_case("state-garbage", text("\x00\x01<html>" + ESC + "[2J\xc2\x9b" + ESC + "]0;owned\x07", "w"),
               stderr=["networks.json", "ignored"]),
    state_case("state-other-version", text(memory(GOOD, version=2)), stderr=["version 2, not 1: ignored"]),
    state_case("state-not-an-object", text("[1, 2, 3]"), stderr=["networks.json", "ignored"]),
    state_case("state-huge", huge, stderr=["networks.json", "ignored"]),
    state_case("state-sparse-1gib", sparse, stderr=["networks.json", "ignored"]),
    state_case("state-fifo", fifo, stderr=["networks.json"]),
    state_case("state-symlink", symlink, stderr=["networks.json"]),
    state_case("state-control-in-name", text(memory(entry(name="home" + ESC + "[2J"), entry(id="ba9876543210"))),
               stderr=["networks.json", "1"]),
    state_case("state-bad-entries", text(memory(entry(id="NOT-AN-ID"), entry(verdict="sideways"),
                                                entry(portal_url="javascript:alert(1)"), entry(open_streak=-1),
                                                entry(last_seen="yesterday"), entry(id="ba9876543210"))),
               stderr=["networks.json"]),
    state_case("state-deep-nesting", text('{"version":1,"networks":' + "[" * 100000 + "]" * 100000 + "}"),
               stderr=["networks.json", "ignored"]),
    state_case("state-many-networks", text(memory(*[entry(id="%012x" % n) for n in range(5000)])),
               stderr=["networks.json"]),
]
