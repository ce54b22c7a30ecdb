"""Hostile answers from probe_server.py on 127.0.0.1:8080 (inside the corpus's namespace):
broken HTTP, control characters in headers and WISPr, stalls and endless bodies. Each
check ends with the right verdict (exit status) and error class, within --timeout, with
every network string escaped on the terminal and filtered in JSON, labels and hook
environments."""

import json
import os

from hostile import Case

HEALTHY = ["/generate_204", "/success.txt", "/apple"]
SUCCESS_PREFIX = {"status": [200], "body": {"prefix": "success"}}


def check_case(name, paths, status, fmt="text", extra=(), timeout=4, quorum=2, expect=None, operator="op%d",
               json_check=None, check=None, **kw):
    """`netprobe check --config` on probes asking for `paths`; `json_check(report)` for --json."""
    def argv(ctx):
        config = ctx.probes(paths, quorum=quorum, timeout=timeout, expect=expect, operator=operator)
        return ["--config", config, "--timeout", str(timeout), "--format", fmt] + list(extra)
    if json_check:
        def check(ctx, r):
            return json_check(json.loads(r.stdout))
    return Case(name, argv, status, deadline=timeout + 1.5, timeout=timeout, json_clean=(fmt == "json"),
                check=check, kind="server answer", **kw)


def all_probes(error_class, outcome="failure"):
    def check(report):
        seen = [(p["outcome"], p["error_class"]) for p in report["probes"]]
        if any(s != (outcome, error_class) for s in seen):
            return "probes were %s, expected all (%s, %s)" % (seen, outcome, error_class)
        return None
    return check


def portal_url_clean(report):
    url = (report.get("portal") or {}).get("url")
    if url is not None and any(ord(c) < 0x20 or 0x7F <= ord(c) <= 0x9F for c in url):
        return "portal url has a control: %r" % url
    return None


def redirect_kept(report):
    portal = report.get("portal") or {}
    if report.get("reason") != "http-redirect" or portal.get("url") != "http://portal.example/login":
        return "reason %r, portal url %r: the Location before a header named HTTP/x was lost" % (
            report.get("reason"), portal.get("url"))
    return None


def wispr_filtered(report):
    wispr = (report.get("portal") or {}).get("wispr")
    if not wispr:
        return "no WISPr block in the report"
    if "&#x9b;" not in (wispr.get("location_name") or ""):
        return "the C1 reference in LocationName was decoded: %r" % wispr.get("location_name")
    return None


def capport_not_queried(ctx, r):
    capport = json.loads(r.stdout).get("capport") or {}
    if capport.get("state") != "failed" or "not queried" not in (capport.get("error") or ""):
        return "capport is %r" % capport
    with open(ctx.server_log) as f:
        if "/capport" in f.read():
            return "the http:// API was asked"
    return None


def hook(name, program_name, script, server_path, check=None, stderr=()):
    """`watch` with a hook named `program_name` running `script`; the hook ends watch by
    sending it SIGTERM (its parent), so the case ends by itself. watch then sends the hook's
    process group SIGTERM too, which the hook ignores: it ends with its own status 3."""
    def argv(ctx):
        config = ctx.probes([server_path] * 3, timeout=3)
        program = ctx.write(program_name, "#!/bin/sh\ntrap '' TERM\n" + script + "\nkill -TERM $PPID\nexit 3\n")
        os.chmod(program, 0o755)
        return ["watch", "--json", "--config", config, "--exec-timeout", "5", "--exec", program]
    return Case(name, argv, 0, deadline=10, json_clean=True, check=check, stderr=list(stderr), kind="server answer")


def env_clean(ctx, r):
    with open(ctx.path("env"), "rb") as f:
        env = f.read()
    lines = [line for line in env.split(b"\0") if line.startswith(b"NETPROBE_")]
    if not any(line.startswith(b"NETPROBE_PORTAL_URL=http") for line in lines):
        return "no portal URL in the hook's environment: %r" % lines
    for line in lines:
        if any(b < 0x20 or b == 0x7F for b in line) or any(0x80 <= c <= 0x9F for c in map(ord, line.decode())):
            return "control character in the hook's environment: %r" % line
    return None


CASES = [
    check_case("srv-healthy", HEALTHY, 0, fmt="json"),
    check_case("srv-garbage-text", ["/garbage"] * 3, 1),
    check_case("srv-garbage-json", ["/garbage"] * 3, 1, fmt="json", json_check=all_probes("protocol")),
    check_case("srv-control-chars-text", ["/control-chars"] * 3, 2),
    check_case("srv-control-chars-json", ["/control-chars"] * 3, 2, fmt="json"),
    check_case("srv-control-chars-prometheus", ["/control-chars"] * 3, 2, fmt="prometheus"),
    check_case("srv-control-headers-text", ["/control-headers"] * 3, 2, stdout=["\\x1b[2J"]),
    check_case("srv-control-headers-json", ["/control-headers"] * 3, 2, fmt="json", json_check=portal_url_clean),
    check_case("srv-control-headers-prometheus", ["/control-headers"] * 3, 2, fmt="prometheus"),
    check_case("srv-control-wispr-text", ["/control-wispr"] * 3, 2),
    check_case("srv-control-wispr-json", ["/control-wispr"] * 3, 2, fmt="json", json_check=wispr_filtered),
    check_case("srv-control-wispr-prometheus", ["/control-wispr"] * 3, 2, fmt="prometheus"),
    check_case("srv-huge-header-line", ["/huge-header-line"] * 3, 1, fmt="json", json_check=all_probes("protocol")),
    check_case("srv-header-block-400k", ["/big-headers?count=80&size=5000"] * 3, 1, fmt="json",
               json_check=all_probes("protocol")),
    check_case("srv-many-headers", ["/big-headers?count=200&size=100"] * 3, 2, fmt="json"),
    check_case("srv-conflicting-length", ["/conflicting-length"] * 3, 1, fmt="json", expect=SUCCESS_PREFIX,
               json_check=all_probes("protocol"), not_stdout=["wrong-content"]),
    check_case("srv-bad-chunked", ["/bad-chunked"] * 3, 1, fmt="json", json_check=all_probes("protocol")),
    check_case("srv-bad-status-line", ["/bad-status-line"] * 3, 1, fmt="json", json_check=all_probes("protocol")),
    check_case("srv-status-like-header", ["/status-like-header"] * 3, 2, fmt="json", json_check=redirect_kept),
    check_case("srv-reset", ["/reset"] * 3, 1, fmt="json", json_check=all_probes("reset")),
    check_case("srv-stall", ["/stall"] * 3, 1, timeout=2, fmt="json", json_check=all_probes("timeout")),
    check_case("srv-stall-body", ["/stall-body"] * 3, 1, timeout=2),
    check_case("srv-slow-past-deadline", ["/slow?ms=5000"] * 3, 1, timeout=1),
    check_case("srv-endless-body", ["/endless"] * 3, 2, timeout=3, fmt="json"),
    check_case("srv-many-stalled-probes", ["/stall"] * 64, 1, timeout=2, quorum=2),
    check_case("srv-redirect-controls", ["/redirect?location=http%3A%2F%2Fportal.example%2F%1B%5B2J%C2%9B1m"] * 3,
               2, stdout=["portal"]),
    check_case("srv-operator-c1", HEALTHY, 0, fmt="json", operator="op\u009b%d"),
    check_case("srv-capport-http-json", HEALTHY, 0, fmt="json", extra=["--capport-url", "http://127.0.0.1:8080/capport"],
               check=capport_not_queried),
    check_case("srv-capport-http-text", HEALTHY, 0, extra=["--capport-url", "http://127.0.0.1:8080/capport"],
               stdout=["sign of a captive portal"]),
    hook("hook-name-controls", "hook\x1b[31m\u009b", ":", "/generate_204",
         stderr=["exited with status 3", "hook\\x1b[31m\\u{009b}"]),
    hook("hook-env-controls", "envhook", 'env -0 > "$(dirname "$0")/env"', "/control-headers", check=env_clean),
    hook("hook-watch-wispr-records", "wisprhook", ":", "/control-wispr"),
]
