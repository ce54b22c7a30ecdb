# shellcheck shell=bash disable=SC2034 # WATCH_RC and the like are read by the scenarios
# Helpers for the watch-* scenarios' scenario_test (sourced by lab/scenarios/watch-*.sh): one
# `netprobe watch --format json` at a time in the client namespace, started by PID, its records
# in $DIR/watch.jsonl (a restarted watch appends, as to a service's log), its stderr in
# $DIR/watch.stderr.txt, and beside it lib/watch_events.py sampling its textfile: a line in
# $DIR/NAME.events at every check it finishes (its counters, the bytes on the gateway's lan0,
# the records so far). Every wait is for a record or such a line, with a deadline; a wait that
# fails says so in $DIR/problems.txt, which the scenario's judge reads.

WATCH_PID=""
WATCH_SAMPLER_PID=""
WATCH_NAME=""
# The records seen so far (lines of watch.jsonl): watch_record waits for one after them.
WATCH_SEEN=0

# watch_start NAME ARGS...: `netprobe watch --format json --textfile $DIR/NAME.prom ARGS`, its
# sampler, then the start record (at most 20 s). Returns 1 (noted) when none came.
watch_start() {
    local name=$1 gateway
    shift
    WATCH_NAME=$name
    # shellcheck disable=SC1090,SC1091 # the run's names
    gateway=$(source "$LAB_RUNS/$LAB_RUN/env" && echo "$GW_NS")
    touch "$DIR/watch.jsonl"
    rm -f "$DIR/$name.prom" "$DIR/$name.events"
    "$LAB" exec netprobe watch --format json --textfile "$DIR/$name.prom" "$@" >>"$DIR/watch.jsonl" 2>>"$DIR/watch.stderr.txt" &
    WATCH_PID=$!
    python3 "$LAB_DIR/lib/watch_events.py" sample "$DIR/$name.prom" "$gateway" "$DIR/$name.events" "$DIR/watch.jsonl" &
    WATCH_SAMPLER_PID=$!
    watch_record "start record of $name" 'r["event"] == "start"' 20
}

# watch_record WHAT EXPR [SECONDS]: waits (default 20 s) for the next record after
# WATCH_SEEN for which the Python EXPR (the record as r) holds; WATCH_SEEN becomes its line.
# Returns 1 (noted as WHAT) at the deadline or when watch ended.
watch_record() {
    local what=$1 expr=$2 seconds=${3:-20} number
    if number=$(python3 "$LAB_DIR/lib/watch_events.py" record "$DIR/watch.jsonl" "$WATCH_SEEN" "$expr" "$seconds" "$WATCH_PID"); then
        WATCH_SEEN=$number
        return 0
    fi
    echo "no record: $what ($expr) within $seconds s after record $WATCH_SEEN$(watch_gone)" >>"$DIR/problems.txt"
    return 1
}

# watch_event WHAT EXPR [SECONDS]: waits (default 20 s) for a check of the running watch for
# which the Python EXPR (checks, lean, bytes, packets, records, t) holds, and prints its line.
# Returns 1 (noted as WHAT) at the deadline or when watch ended.
watch_event() {
    local what=$1 expr=$2 seconds=${3:-20}
    python3 "$LAB_DIR/lib/watch_events.py" event "$DIR/$WATCH_NAME.events" "$expr" "$seconds" "$WATCH_PID" && return 0
    echo "no check: $what ($expr) within $seconds s$(watch_gone)" >>"$DIR/problems.txt"
    return 1
}

# watch_last FIELD: FIELD of the running watch's last check so far (0 before any).
watch_last() {
    local last
    last=$(tail -n 1 "$DIR/$WATCH_NAME.events" 2>/dev/null)
    python3 -c 'import json, sys; print(json.loads(sys.argv[1])[sys.argv[2]] if sys.argv[1] else 0)' "$last" "$1"
}

watch_gone() {
    pid_alive "$WATCH_PID" || echo " (watch had ended: $(tail -n 3 "$DIR/watch.stderr.txt" 2>/dev/null | tr '\n' ' '))"
}

# watch_stop: SIGTERM to watch's PID, its exit status in WATCH_RC; the sampler ends too.
WATCH_RC=""
watch_stop() {
    WATCH_RC=0
    kill -TERM "$WATCH_PID" 2>/dev/null || true
    wait "$WATCH_PID" || WATCH_RC=$?
    kill -TERM "$WATCH_SAMPLER_PID" 2>/dev/null || true
    wait "$WATCH_SAMPLER_PID" 2>/dev/null || true
    WATCH_SEEN=$(grep -c . "$DIR/watch.jsonl" || true)
}

# now: the lab's clock, in decimal seconds.
now() { date +%s.%N; }
