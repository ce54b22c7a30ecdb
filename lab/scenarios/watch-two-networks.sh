# shellcheck shell=bash disable=SC2034 # a scenario: lab up runs setup(), lab/test reads the rest
DESCRIPTION="watch on network A (proven open), switched to network B (another router, DHCP server and domain: carrier off, a new dhcpcd lease), then back to A: each record names its network, report splits the time, the state file holds both, and the first re-check back on A is lean"
setup() {
    networks
    dns_vendors
    web_vendors
}
EXPECT_EXIT=0
EXPECT_VERDICT=online
EXPECT_REASON=probes-validated
CHECKS=()
# watch --interval 2 --hold 0 with its state directory; every wait is for a record or a check
# (lib/watch.sh). The lab's clock: A from watch's start to the carrier going, and from A's
# lease back in place to the stop; B from its lease in place to the carrier going.
scenario_test() {
    # shellcheck source=lab/lib/watch.sh
    source "$LAB_DIR/lib/watch.sh"
    local state=$DIR/state t0 t1 t2 t3 t4 t5 n1 n3 b_at a_at lean_before=-1 checks_at
    mkdir -p "$state"
    t0=$(now)
    if watch_start watch --interval 2 --hold 0 --timeout 2 --state-directory "$state"; then
        # A proven open: its first lean re-check.
        watch_event "a lean re-check on A" 'lean >= 1' 20 >/dev/null
        n1=$WATCH_SEEN
        t1=$(now)
        lab_do network B
        t2=$(now)
        watch_record "online on B" 'r["verdict"] == "online" and r["network"]["id"] is not None' 20 && b_at=$WATCH_SEEN
        # Two more checks on B, then back.
        checks_at=$(watch_last checks)
        watch_event "two re-checks on B" "checks >= $checks_at + 2" 20 >/dev/null
        n3=$WATCH_SEEN
        t3=$(now)
        lab_do network A
        t4=$(now)
        if watch_record "online on A again" 'r["verdict"] == "online" and r["network"]["id"] is not None' 20; then
            a_at=$WATCH_SEEN
            # The first re-check after the return: the first check that finishes a second or
            # more after the return's record was seen (the interval is 2 s).
            local record_seen first
            record_seen=$(now)
            first=$(watch_event "the first re-check back on A" "t >= $record_seen + 1" 10)
            lean_before=$(python3 - "$DIR/watch.events" "$first" <<'PY'
import json, sys
rows = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]
first = json.loads(sys.argv[2]) if sys.argv[2] else None
before = [r for r in rows if first and r["t"] < first["t"]]
print("%d %d" % (before[-1]["lean"], first["lean"]) if first and before else "-1 -1")
PY
)
            checks_at=$(watch_last checks)
            watch_event "another re-check on A" "checks >= $checks_at + 1" 10 >/dev/null
        fi
        t5=$(now)
    fi
    watch_stop
    "$LAB" exec netprobe report --format json "$DIR/watch.jsonl" >"$DIR/summary.json" 2>>"$DIR/watch.stderr.txt" || true
    local judged
    judged=$(python3 - "$DIR" "$WATCH_RC" "${n1:-0}" "${b_at:-0}" "${n3:-0}" "${a_at:-0}" "${lean_before:--1 -1}" \
        "$t0" "${t1:-0}" "${t2:-0}" "${t3:-0}" "${t4:-0}" "${t5:-0}" <<'JUDGE' 2>&1
import json, os, sys
out, rc = sys.argv[1], sys.argv[2]
n1, b_at, n3, a_at = map(int, sys.argv[3:7])
lean_before, lean_first = map(int, sys.argv[7].split())
t0, t1, t2, t3, t4, t5 = map(float, sys.argv[8:14])
problems = []
if os.path.exists(os.path.join(out, "problems.txt")):
    problems += open(os.path.join(out, "problems.txt")).read().split("\n")
records = [json.loads(line) for line in open(os.path.join(out, "watch.jsonl")) if line.strip()]
ids = [r["network"]["id"] for r in records]
if not records or records[0]["event"] != "start" or records[-1]["event"] != "stop":
    problems.append("events %s" % [r["event"] for r in records])
elif min(n1, b_at, n3, a_at) < 1:
    problems.append("the switches did not happen (records %s)" % [(r["event"], r["verdict"], r["network"]["id"]) for r in records])
else:
    a, b = ids[0], ids[b_at - 1]
    # Each record names the network it was on: A's up to the switch, none (no carrier, no
    # lease yet) until B's, B's up to the switch back, none until A's, then A's to the stop.
    segments = [(0, n1, a), (n1, b_at - 1, None), (b_at - 1, n3, b), (n3, a_at - 1, None), (a_at - 1, len(records), a)]
    for start, end, want in segments:
        for r in records[start:end]:
            if r["network"]["id"] != want and not (want is None and r["verdict"] != "online"):
                problems.append("record %s (%s %s) names %s, not %s" % (records.index(r) + 1, r["event"], r["verdict"], r["network"]["id"], want))
    if a is None or b is None or a == b or ids[a_at - 1] != a:
        problems.append("A %s, B %s, A again %s" % (a, b, ids[a_at - 1]))
    if records[b_at - 1]["network"]["domain"] != "office.example" or records[0]["network"]["domain"] != "home.example":
        problems.append("domains: A %s, B %s" % (records[0]["network"], records[b_at - 1]["network"]))
    try:
        nets = {n["id"]: n for n in json.load(open(os.path.join(out, "summary.json")))["networks"]}
        for net, name, lab in ((a, "home.example", (t1 - t0) + (t5 - t4)), (b, "office.example", t3 - t2)):
            got = nets.get(net)
            if got is None or got["name"] != name or abs(got["observed_ms"] / 1000 - lab) > 2:
                problems.append("report: network %s %s, the lab's clock %.2f s" % (name, got, lab))
            else:
                with open(os.path.join(out, "steps.txt"), "a") as steps:
                    steps.write("pass report: %s %s observed %.2f s, the lab's clock %.2f s\n" % (name, net, got["observed_ms"] / 1000, lab))
    except (OSError, ValueError, KeyError) as error:
        problems.append("report: %r" % error)
    try:
        state = json.load(open(os.path.join(out, "state", "networks.json")))
        if state.get("version") != 1 or not {a, b} <= {n.get("id") for n in state.get("networks", [])}:
            problems.append("state file %s" % state)
    except (OSError, ValueError) as error:
        problems.append("state file: %r" % error)
    if not lean_first > lean_before >= 0:
        problems.append("the first re-check back on A was not lean (netprobe_lean_checks_total %d, then %d)" % (lean_before, lean_first))
if rc != "0":
    problems.append("watch exited %s on SIGTERM" % rc)
print("; ".join(p for p in problems if p) or "ok")
JUDGE
)
    if ! /usr/bin/python3 "$LAB_DIR/../scripts/validate-json" "$LAB_DIR/../schemas/summary.schema.json" "$DIR/summary.json" >>"$DIR/steps.txt" 2>&1; then
        echo "FAIL report: does not match schemas/summary.schema.json" >>"$DIR/steps.txt"
        STEPS_FAILED+=(summary-schema)
    fi
    np_watch_result "$judged" online,online,online "A (proven, lean), B, A again (first re-check lean): each record names its network, report splits the time, the state file holds both"
}
