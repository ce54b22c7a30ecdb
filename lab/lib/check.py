#!/usr/bin/env python3
"""Judge one netprobe run in the lab against a scenario's expectations.

Reads netprobe's JSON report, its exit status, the wall-clock time the lab
measured and the gateway's packet counters, then checks the expected exit
status, verdict and reason, and every --check expression. A check is a Python
expression evaluated with these names:

  r          the JSON report (dict)
  probes     r["probes"]
  probe(h)   the probe whose URL host is h (e.g. probe("www.google.com"))
  iface(n)   the interface named n from r["interfaces"]
  path(n, f) the path of interface n and family f ("ipv4", "ipv6", or None
             when the system chose the family) from r["paths"]
  status     netprobe's exit status
  elapsed    wall-clock seconds the lab measured around netprobe
  timeout    the --timeout given to netprobe
  counters   gateway packet counters for client traffic, e.g. counters["client_syns"]
  text       netprobe's text output of the same network (str), when the scenario
             ran one (np_run_text); None otherwise
  text_status  that run's exit status (None without one)
  probe_page(x)  x (the report, or one of its paths) names a portal whose page to
             open is an intercepted probe's own URL: portal.source "probe", the
             smallest http:// URL among the probes judged portal, and that probe
  text_probe_page()  the text output's "log in at" line offers a plain-HTTP probe
             URL of the report's probe set, marked as the probe's own page

Prints one summary line on success; on failure, each failed expectation with
the values involved, and exits 1. Standard library only.
"""

import argparse
import json
import sys
import urllib.parse


def load_report(path):
    with open(path, encoding="utf-8") as f:
        text = f.read()
    try:
        return json.loads(text), None
    except json.JSONDecodeError as err:
        return None, f"stdout is not one JSON object ({err}): {text[:400]!r}"


def load_text(path):
    """The text output, which must be UTF-8: netprobe escapes whatever the network sent."""
    with open(path, "rb") as f:
        data = f.read()
    try:
        return data.decode("utf-8"), None
    except UnicodeDecodeError as err:
        return None, f"text output is not UTF-8 ({err}): {data[:400]!r}"


def make_namespace(report, args, counters, text):
    probes = report.get("probes") or []

    def probe(host):
        for p in probes:
            if urllib.parse.urlsplit(p.get("url", "")).hostname == host:
                return p
        raise LookupError(f"no probe for host {host!r} (have {[p.get('url') for p in probes]})")

    def iface(name):
        for i in report.get("interfaces") or []:
            if i.get("name") == name:
                return i
        raise LookupError(f"no interface {name!r}")

    def path(name, family):
        paths = report.get("paths")
        if not isinstance(paths, list):
            raise LookupError("the report has no \"paths\" array")
        for p in paths:
            if p.get("interface") == name and p.get("family") == family:
                return p
        raise LookupError(f"no path ({name!r}, {family!r}) (have {[(p.get('interface'), p.get('family')) for p in paths]})")

    def probe_page(x):
        portal = x.get("portal") or {}
        intercepted = [p for p in x.get("probes") or [] if p.get("outcome") == "portal" and p.get("url", "").startswith("http://")]
        if portal.get("source") != "probe" or not intercepted:
            return False
        first = min(intercepted, key=lambda p: (p["url"], p["name"]))
        return portal.get("url") == first["url"] and portal.get("probe") == first["name"]

    def text_probe_page():
        # A run of its own: which intercepted probes landed before the verdict may differ.
        note = "  (from probe: the network named no login page; the portal answers this one)"
        urls = {p.get("url") for p in probes if p.get("url", "").startswith("http://")}
        return any(line.startswith("  log in at: ") and line.endswith(note) and line.split()[3] in urls
                   for line in (text or "").splitlines())

    return {
        "r": report, "probes": probes, "probe": probe, "iface": iface, "path": path,
        "probe_page": probe_page, "text_probe_page": text_probe_page,
        "status": args.exit, "elapsed": args.elapsed, "timeout": args.timeout,
        "counters": counters, "text": text, "text_status": args.text_exit,
    }


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--report", required=True)
    ap.add_argument("--exit", type=int, required=True)
    ap.add_argument("--elapsed", type=float, required=True)
    ap.add_argument("--timeout", type=float, required=True)
    ap.add_argument("--counters", required=True)
    ap.add_argument("--expect-exit", type=int)
    ap.add_argument("--expect-verdict")
    ap.add_argument("--expect-reason", help="a reason, or alternatives separated by |")
    ap.add_argument("--check", action="append", default=[])
    ap.add_argument("--text", help="netprobe's text output of the same network")
    ap.add_argument("--text-exit", type=int, help="that run's exit status")
    args = ap.parse_args()

    with open(args.counters, encoding="utf-8") as f:
        counters = json.load(f)
    report, error = load_report(args.report)
    failures = []
    if error:
        failures.append(error)
    text = None
    if args.text:
        text, text_error = load_text(args.text)
        if text_error:
            failures.append(text_error)
    if args.expect_exit is not None and args.exit != args.expect_exit:
        failures.append(f"exit status {args.exit}, expected {args.expect_exit}")
    if report is not None:
        if args.expect_verdict and report.get("verdict") != args.expect_verdict:
            failures.append(f"verdict {report.get('verdict')!r}, expected {args.expect_verdict!r}")
        if args.expect_reason and report.get("reason") not in args.expect_reason.split("|"):
            failures.append(f"reason {report.get('reason')!r}, expected {args.expect_reason!r}")
        ns = make_namespace(report, args, counters, text)
        for expr in args.check:
            try:
                # The names are globals, so comprehensions inside a check see them too.
                ok = eval(expr, {"__builtins__": __builtins__, **ns})  # scenario files are trusted repo code
            except Exception as err:  # a failing lookup is a failed check, with its reason
                failures.append(f"check `{expr}` raised {type(err).__name__}: {err}")
                continue
            if not ok:
                failures.append(f"check `{expr}` is false")

    if failures:
        for f in failures:
            print(f"  - {f}")
        print(f"  counters: {json.dumps(counters, sort_keys=True)}")
        sys.exit(1)
    print(f"{report.get('verdict')} {report.get('reason')}, {report.get('duration_ms')} ms to verdict")


if __name__ == "__main__":
    main()
