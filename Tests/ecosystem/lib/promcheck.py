#!/usr/bin/python3
"""Checks one `netprobe --format prometheus` output against what the scenario
expects, reading it with the official Python client's parser (Debian package
python3-prometheus-client), not with netprobe's own code.

usage: promcheck.py PROM EXPECT JSON MAN
  PROM    the exposition text
  EXPECT  "VERDICT REASON STATUS" (lib/scenarios.sh)
  JSON    the same scenario's --format json report (for probe names and portal URL)
  MAN     man/netprobe.1 (every metric name must be documented there)
Prints one "not ok - ..." line per problem; exits 1 when there is any."""
import json
import re
import urllib.parse
import sys

from prometheus_client.parser import text_string_to_metric_families


def main(prom_path, expect_path, json_path, man_path):
    problems = []
    verdict, reason, _ = open(expect_path).read().split()
    report = json.load(open(json_path))
    families = {f.name: f for f in text_string_to_metric_families(open(prom_path).read())}
    documented = set(re.findall(r"netprobe_[a-z_]+", section(open(man_path).read(), "PROMETHEUS")))

    def samples(name):
        return families[name].samples if name in families else []

    def value(name, **labels):
        found = [s.value for s in samples(name) if all(s.labels.get(k) == v for k, v in labels.items())]
        return found[0] if len(found) == 1 else None

    for name, family in families.items():
        if family.type != "gauge":
            problems.append(f"{name}: TYPE is {family.type}, expected gauge")
        if not family.documentation:
            problems.append(f"{name}: no HELP text")
        if name not in documented:
            problems.append(f"{name}: not described in the PROMETHEUS section of netprobe(1)")
    if value("netprobe_success") != (1 if verdict == "online" else 0):
        problems.append(f"netprobe_success is {value('netprobe_success')} for verdict {verdict}")
    for candidate in ("online", "portal", "offline"):
        if value("netprobe_verdict", verdict=candidate) != (1 if candidate == verdict else 0):
            problems.append(f"netprobe_verdict{{verdict=\"{candidate}\"}} is wrong for verdict {verdict}")
    if value("netprobe_reason_info", verdict=verdict, reason=reason) != 1:
        problems.append(f"netprobe_reason_info has no sample for {verdict}/{reason}: {samples('netprobe_reason_info')}")

    names = sorted(p["name"] for p in report["probes"])
    for metric in ("netprobe_probe_success", "netprobe_probe_outcome"):
        labelled = sorted(set(s.labels["probe"] for s in samples(metric)))
        if labelled != names:
            problems.append(f"{metric} has probes {labelled}, the report has {names}")
    for probe in report["probes"]:
        # A fixed set of four series per probe, exactly one of them 1, no other label. (The
        # report and the exposition come from two runs: which outcome a probe early exit
        # skipped may differ between them.)
        got = {s.labels["outcome"]: s.value for s in samples("netprobe_probe_outcome") if s.labels["probe"] == probe["name"]}
        if sorted(got) != ["failure", "portal", "skipped", "success"] or sorted(got.values()) != [0, 0, 0, 1]:
            problems.append(f"netprobe_probe_outcome for {probe['name']}: {got}, expected the four outcomes, one of them 1")
    for s in samples("netprobe_probe_outcome"):
        if set(s.labels) != {"probe", "outcome"}:
            problems.append(f"netprobe_probe_outcome has labels {sorted(s.labels)}")
    for s in samples("netprobe_probe_duration_seconds"):
        if s.value < 0 or s.labels["phase"] not in ("resolve", "connect", "tls", "processing", "transfer"):
            problems.append(f"bad phase sample {s}")

    portal = [s.labels for s in samples("netprobe_portal_info")]
    if verdict == "portal":
        # The login URL's host only (its query may hold a session token: a new series each time).
        url = report["portal"]["url"] or ""
        host = urllib.parse.urlsplit(url).hostname or "" if url else ""
        want = [{"host": host, "source": report["portal"]["source"] or ""}]
        if portal != want:
            problems.append(f"netprobe_portal_info labels {portal}, expected {want}")
    elif portal:
        problems.append(f"netprobe_portal_info present for verdict {verdict}")

    for problem in problems:
        print(f"not ok - {prom_path}: {problem}")
    return 1 if problems else 0


def section(man, name):
    match = re.search(r"^\.Sh %s\n(.*?)(?=^\.Sh )" % name, man, re.S | re.M)
    return match.group(1) if match else ""


if __name__ == "__main__":
    sys.exit(main(*sys.argv[1:]))
