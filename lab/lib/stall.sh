# shellcheck shell=bash
# Helpers for the stall scenarios' scenario_test (sourced by lab/scenarios/stall-*.sh): real
# TCP traffic from servers/bulk.py, one `netprobe watch --interval 600` per shape, the gateway
# then dropping everything it would route (what the client sends to any address but the
# gateway's own), and a judgement of the records. Every wait is for a record on watch's
# stdout, with a deadline; a window in which no record may come is such a wait too.

STALL_FLOW_PIDS=()
STALL_WATCH_PID=""

# stall_flows RATE FLOW...: a bulk.py client in the client namespace (FLOW: KIND@ADDR, port
# 9000), at RATE bytes a second per flow; waits (bounded) until all its connections are up.
stall_flows() {
    local rate=$1 flows=() spec want=0 have n
    shift
    for spec in "$@"; do flows+=("$spec:9000"); done
    have=$(stall_connections)
    "$LAB" exec python3 "$LAB_DIR/servers/bulk.py" client --rate "$rate" "${flows[@]}" >>"$DIR/flows.log" 2>&1 &
    STALL_FLOW_PIDS+=($!)
    want=$((have + $#))
    for ((n = 0; n < 100; n++)); do (($(stall_connections) >= want)) && return 0; sleep 0.05; done
    echo "flows $*: $(stall_connections) of $want connections up" >>"$DIR/problems.txt"
}

# stall_curl RATE ADDR...: one `curl --limit-rate RATE` per ADDR in the client namespace, each
# downloading an endless body from bulk.py (port 9000) at its own pace, slower than the link
# (the kernel's receive queue holds what it has not read); waits (bounded) until all are up.
# Their PIDs (curl's own: lab exec execs it) are in STALL_READER_PIDS.
STALL_READER_PIDS=()
stall_curl() {
    local rate=$1 address want have n
    shift
    have=$(stall_connections)
    for address in "$@"; do
        "$LAB" exec curl -sS -o /dev/null --limit-rate "$rate" "http://$address:9000/stream" >>"$DIR/flows.log" 2>&1 &
        STALL_FLOW_PIDS+=($!)
        STALL_READER_PIDS+=($!)
    done
    want=$((have + $#))
    for ((n = 0; n < 100; n++)); do (($(stall_connections) >= want)) && return 0; sleep 0.05; done
    echo "curl $*: $(stall_connections) of $want connections up" >>"$DIR/problems.txt"
}

stall_connections() { "$LAB" exec ss -tnH state established '( dport = 9000 )' | grep -c . || true; }

stall_flows_stop() {
    local pid
    for pid in "${STALL_FLOW_PIDS[@]}"; do kill "$pid" 2>/dev/null || true; wait "$pid" 2>/dev/null || true; done
    STALL_FLOW_PIDS=()
    STALL_READER_PIDS=()
}

# stall_watch NAME: watch in the client namespace, its records in $DIR/NAME.jsonl, its
# textfile in $DIR/NAME/; returns once the start record is there (at most 15 s).
stall_watch() {
    local name=$1
    mkdir -p "$DIR/$name"
    : >"$DIR/$name.jsonl"
    "$LAB" exec netprobe watch --json --hold 0 --interval 600 --timeout 5 --textfile "$DIR/$name/netprobe.prom" \
        >"$DIR/$name.jsonl" 2>>"$DIR/watch.stderr.txt" &
    STALL_WATCH_PID=$!
    timeout 15 tail -n +1 -f "$DIR/$name.jsonl" | head -n 1 >/dev/null || true
}

# stall_quiet NAME SECONDS: a window in which watch must write nothing after its start record.
stall_quiet() {
    timeout "$2" tail -n +2 -f "$DIR/$1.jsonl" | head -n 1 >/dev/null || true
}

# stall_quiet_checks NAME SECONDS MOST: a window in which watch writes no record and raises
# at most MOST stall checks (its textfile's counter, from 0 at its start).
stall_quiet_checks() {
    stall_quiet "$1" "$2"
    local records counter
    records=$(grep -c . "$DIR/$1.jsonl")
    counter=$(stall_counter "$1")
    if ((records != 1 || ${counter:-0} > $3)); then
        echo "$1: $records record(s) and $counter stall check(s) in $2 s (at most $3)" >>"$DIR/problems.txt"
    else
        echo "$1: $2 s, no record, $counter stall check(s)" >>"$DIR/detection.txt"
    fi
}

stall_counter() { awk '$1 == "netprobe_stall_suspected_total" { print $2 }' "$DIR/$1/netprobe.prom" 2>/dev/null; }

# stall_stop NAME: SIGTERM to watch (its stop record), the flows ended, the block lifted.
stall_stop() {
    kill -TERM "$STALL_WATCH_PID" 2>/dev/null || true
    wait "$STALL_WATCH_PID" || echo "$1: watch exited $? on SIGTERM" >>"$DIR/problems.txt"
    STALL_WATCH_PID=""
    stall_flows_stop
    "$LAB" do unblock
    cat "$DIR/$1.jsonl" >>"$DIR/watch.jsonl"
}

# stall_drop NAME [COUNTER]: the gateway drops everything it would route; the offline record
# (trigger stall) must be done within 20 s, the counter COUNTER (1: the stall checks before the
# drop, plus one). Ends the shape (stall_stop).
stall_drop() {
    local name=$1 want=${2:-1} dropped judged
    dropped=$(date +%s.%N)
    "$LAB" do block "ip daddr != $GW_V4" drop
    timeout 30 tail -n +1 -f "$DIR/$name.jsonl" | head -n 2 >/dev/null || true
    local counter
    stall_stop "$name"
    # Read once watch has ended: the textfile is replaced after the record is written.
    counter=$(stall_counter "$name")
    judged=$(python3 - "$DIR/$name.jsonl" "$dropped" "$counter" "$want" <<'JUDGE' 2>&1
import datetime, json, sys
def t(text):
    return datetime.datetime.fromisoformat(text.replace("Z", "+00:00")).timestamp()
out, dropped, counter, want = sys.argv[1:]
records = [json.loads(line) for line in open(out) if line.strip()]
got = [(r["event"], r["trigger"], r["verdict"]) for r in records]
if got[:2] != [("start", "start", "online"), ("change", "stall", "offline")]:
    print("records %s, expected start (online) then change (stall, offline)" % got)
else:
    offline = records[1]
    done = t(offline["timestamp"]) + offline["duration_ms"] / 1000 - float(dropped)
    if done > 20 or counter != want:
        print("offline record done %.1f s after the drop, netprobe_stall_suspected_total %r" % (done, counter))
    else:
        print("ok %.1f s (checked %.1f s after the drop)" % (done, t(offline["timestamp"]) - float(dropped)))
JUDGE
)
    if [[ $judged == ok* ]]; then
        echo "$name: offline record ${judged#ok }" >>"$DIR/detection.txt"
    else
        echo "$name: $judged" >>"$DIR/problems.txt"
    fi
}

# stall_result: the scenario's judgement, from what the shapes wrote.
stall_result() {
    local judged=ok
    [[ -s $DIR/problems.txt ]] && judged=$(paste -sd';' "$DIR/problems.txt")
    np_watch_result "$judged" online,offline "$(paste -sd';' "$DIR/detection.txt" 2>/dev/null)"
}
