#!/usr/bin/python3
"""Synthetic `netprobe watch --json --all-paths` records (JSON Lines) for `netprobe report`.

Three paths (eth0 ipv4, wlan0 ipv4, wlan0 ipv6) that are mostly online, with outages of
several reasons, a hotel-style captive portal on wlan0 once a day, probe timings per operator
that drift over the day, and the keys other watch versions add (trigger, dns, an "expiring"
event, portal.expires_at), which a reader must ignore. Deterministic for a given --seed.

  synth_watch.py --days 3                  one record per change, as watch writes them
  synth_watch.py --days 365 --every 60     one record a minute for a year (the bench input)
  synth_watch.py --days 2 --hostile        also malformed, truncated and out-of-order lines
  synth_watch.py --days 365 --heartbeat 900
                                           as a watch of now writes them: the changes, an
                                           "alive" record whenever nothing was written for 900 s,
                                           a clean restart (stop, start a minute later) every
                                           week and a crash (a start with no stop, half a
                                           heartbeat after the last record) every 30 days
"""
import argparse
import datetime
import json
import math
import random
import sys

OPERATORS = [("apple", "apple", 34.0), ("google", "google", 21.0), ("firefox", "mozilla", 47.0),
             ("microsoft", "microsoft", 63.0), ("gnome", "gnome", 96.0)]
PORTAL_URL = "http://login.hotel-wifi.example/portal?mac=02:00:5e:10:00:01&ssid=Guest"
PATHS = [("eth0", "ipv4"), ("wlan0", "ipv4"), ("wlan0", "ipv6")]
OUTAGE_REASONS = ["no-default-route", "no-link", "dns-failed", "timeout", "connect-failed"]
# The failed hop a watch names beside each reason (netprobe(1), FAULTS); timeout's varies.
FAULTS = {"no-default-route": "route", "no-link": "link", "dns-failed": "dns", "connect-failed": "upstream"}


def stamp(t):
    return datetime.datetime.fromtimestamp(t, datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%S.") + "%03dZ" % (int(t * 1000) % 1000)


def schedule(rng, start, seconds):
    """Per path: a sorted list of (time, verdict, reason, portal_url) changes."""
    changes = {}
    for index, (interface, family) in enumerate(PATHS):
        events = [(start, "online", "probes-validated", None)]
        t = start + rng.uniform(1800, 6 * 3600)
        while t < start + seconds:
            if interface == "wlan0" and rng.random() < 0.35:
                length = rng.uniform(15, 70) * 60
                events.append((t, "portal", "http-redirect", PORTAL_URL))
            else:
                length = rng.expovariate(1 / (20 * 60)) + 45
                reason = OUTAGE_REASONS[rng.randrange(len(OUTAGE_REASONS))]
                events.append((t, "offline", reason, None))
                if rng.random() < 0.3:  # the reason changes during the outage
                    events.append((t + length / 2, "offline", "no-default-route" if reason != "no-default-route" else "timeout", None))
            events.append((t + length, "online", "probes-validated", None))
            t += length + rng.uniform(3, 14) * 3600 * (1 + index * 0.3)
        changes[(interface, family)] = [e for e in events if e[0] < start + seconds]
    # Outages of the shared uplink (the ISP): every path offline at once, so the overall answer is too.
    shared = []
    t = start + rng.uniform(8, 20) * 3600
    while t < start + seconds:
        length = rng.uniform(4, 40) * 60
        shared.append((t, t + length, OUTAGE_REASONS[rng.randrange(2, len(OUTAGE_REASONS))]))
        t += length + rng.uniform(20, 40) * 3600
    return changes, shared


def state_at(events, shared, t):
    for begin, end, reason in shared:
        if begin <= t < end:
            return (begin, "offline", reason, None)
    current = events[0]
    for event in events:
        if event[0] > t:
            break
        current = event
    return current


def probes(rng, t, verdict, portal_url):
    out = []
    hour = (t % 86400) / 3600
    for name, operator, base in OPERATORS:
        busy = 1 + 0.45 * max(0, math.sin((hour - 8) / 24 * 2 * math.pi))
        if verdict == "offline":
            timings, outcome = None, "failure"
        else:
            total = base * busy * rng.lognormvariate(0, 0.18)
            timings = {"dns_ms": round(total * 0.2, 1), "connect_ms": round(total * 0.45, 1), "tls_ms": None,
                       "first_byte_ms": round(total * 0.9, 1), "total_ms": round(total, 1)}
            outcome = "success" if verdict == "online" else "portal"
        out.append({"name": name, "url": "http://%s.invalid/" % name, "operator": operator, "outcome": outcome,
                    "error_class": None if outcome == "success" else ("redirect" if outcome == "portal" else "dns"),
                    "skip_reason": None, "status": 204 if outcome == "success" else (302 if outcome == "portal" else None),
                    "body_matched": None, "body_bytes": 0, "body_truncated": False, "remote_address": "192.0.2.10",
                    "dns_hijack": False, "duration_ms": timings["total_ms"] if timings else 12.0, "error": None,
                    "proxy": None, "proxy_auth_realm": None,
                    "headers": {"location": portal_url, "content_type": "text/html", "content_length": "0", "via": None}
                    if outcome == "portal" else None, "timings": timings})
    return out


def portal_object(url, expires=None):
    if url is None:
        return None
    obj = {"url": url, "source": "redirect", "probe": "apple", "status": 302, "login_url": None, "location_name": "Hotel Guest",
           "wispr": None}
    if expires:
        obj["expires_at"] = expires  # a key newer watch versions add
    return obj


RANK = {"online": 2, "portal": 1, "offline": 0}


def record(rng, t, states, previous, event, trigger):
    paths = []
    for (interface, family) in PATHS:
        _, verdict, reason, url = states[(interface, family)]
        paths.append({"interface": interface, "family": family, "default": interface == "eth0" or family == "ipv6",
                      "verdict": verdict, "reason": reason, "portal": portal_object(url), "partial": False if verdict == "online" else None,
                      "probes": [], "duration_ms": 40.0, **fault_of(verdict, reason, interface)})
    best = max((p for p in paths if p["default"]), key=lambda p: RANK[p["verdict"]])
    url = best["portal"]["url"] if best["portal"] else None
    return {
        "changed": [] if previous is None else ["verdict", "reason"], "changed_paths": [], "event": event,
        "previous": previous and previous[0], "previous_reason": previous and previous[1], "trigger": trigger,
        "capport": None, "default_routes": [], "dns": {"servers": ["192.0.2.53"], "search_domains": [], "local_stub": False,
                                                       "source": "/etc/resolv.conf"},
        "dns_canary": None, "dns_hijack": False, "duration_ms": round(rng.uniform(20, 80), 1), "families": ["ipv4", "ipv6"],
        "interfaces": [{"name": "eth0", "index": 2, "type": "ethernet", "kind": None, "up": True, "carrier": True, "operstate": "up",
                        "mtu": 1500, "hardware_address": "02:00:5e:10:00:02", "expensive": False, "addresses": []}],
        "kernel_routes": [], "partial": False, "partial_error": None,
        "paths": paths, "portal": portal_object(url, stamp(t + 3600) if url else None),
        "probes": probes(rng, t, best["verdict"], url), "proxy": False,
        "quorum": {"required": 2, "success": 5 if best["verdict"] == "online" else 0, "portal": 5 if best["verdict"] == "portal" else 0},
        "reason": best["reason"], "schema_version": 1, "timestamp": stamp(t), "verdict": best["verdict"],
        "fault": best["fault"], "fault_detail": best["fault_detail"],
    }


def fault_of(verdict, reason, interface):
    """`fault` and `fault_detail` as watch writes them: named on offline states only."""
    if verdict != "offline":
        return {"fault": None, "fault_detail": None}
    fault = FAULTS.get(reason, "gateway" if interface == "wlan0" else None)
    return {"fault": fault, "fault_detail": fault and f"{fault} on {interface}"}


def heartbeat(rng, times, changes, shared, start, seconds, every):
    """The change records plus what a watch of now adds: alive records filling every stretch
    longer than the heartbeat, a weekly clean restart, a monthly crash."""
    events = [(t, "change") for t in times]
    week, month = 7 * 86400, 30 * 86400
    events += [(start + k * week, "restart") for k in range(1, int(seconds / week) + 1)]
    events += [(start + k * month + 4321, "crash") for k in range(1, int(seconds / month) + 1)]
    events.sort()
    out = sys.stdout
    previous, last, n = None, None, 0

    def emit(t, event, trigger):
        nonlocal previous, last
        states = {key: state_at(changes_, shared, t) for key, changes_ in changes.items()}
        rec = record(rng, t, states, None if event in ("start", "alive", "stop") else previous, event, trigger)
        if event in ("alive", "stop"):
            rec["probes"] = []  # stands for the repeated evidence; the report reads none of it
        rec["heartbeat_seconds"] = every
        if event == "change" and previous == (rec["verdict"], rec["reason"]):
            return  # watch writes changes only
        previous = (rec["verdict"], rec["reason"])
        last = t
        out.write(json.dumps(rec, separators=(",", ":")) + "\n")

    for t, kind in events:
        if last is None:
            emit(t, "start", "start")
            continue
        while t - last > every:
            emit(last + every, "alive", "interval")
        if kind == "restart":
            emit(t, "stop", "signal")
            emit(t + 60, "start", "start")
        elif kind == "crash":
            last = None  # killed: nothing more from this watch
            emit(t + every / 2, "start", "start")
        else:
            emit(t, "change", rng.choice(["interval", "link", "retry", "resolv", "lease", "stall"]))
    while last is not None and start + seconds - last > every:
        emit(last + every, "alive", "interval")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--start", default="2026-03-02T00:00:00Z")
    parser.add_argument("--days", type=float, default=3)
    parser.add_argument("--every", type=float, default=0, help="one record every this many seconds (0: one per change)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--hostile", action="store_true")
    parser.add_argument("--heartbeat", type=float, default=0, help="alive records, restarts and crashes as watch writes them")
    args = parser.parse_args()
    rng = random.Random(args.seed)
    start = datetime.datetime.fromisoformat(args.start.replace("Z", "+00:00")).timestamp()
    seconds = args.days * 86400
    changes, shared = schedule(rng, start, seconds)
    if args.every:
        times = [start + i * args.every for i in range(int(seconds / args.every))]
    else:
        times = sorted({e[0] for events in changes.values() for e in events} | {b for s in shared for b in s[:2]})
    if args.heartbeat:
        heartbeat(rng, times, changes, shared, start, seconds, args.heartbeat)
        return
    out = sys.stdout
    previous = None
    lines = []
    for n, t in enumerate(times):
        states = {key: state_at(events, shared, t) for key, events in changes.items()}
        trigger = "start" if n == 0 else rng.choice(["interval", "link", "retry", "resolv"])
        rec = record(rng, t, states, previous, "start" if n == 0 else "change", trigger)
        previous = (rec["verdict"], rec["reason"])
        line = json.dumps(rec, separators=(",", ":"))
        if args.hostile:
            lines.append(line)
        else:
            out.write(line + "\n")
    if args.hostile:
        # Two records swapped (out of order), a truncated line, garbage, an "expiring" event.
        if len(lines) > 6:
            lines[3], lines[4] = lines[4], lines[3]
        lines.insert(2, lines[1][: len(lines[1]) // 2])
        lines.insert(5, "this is not JSON \x1b[31m")
        expiring = json.loads(lines[-1])
        expiring["event"] = "expiring"
        lines.append(json.dumps(expiring, separators=(",", ":")))
        out.write("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
