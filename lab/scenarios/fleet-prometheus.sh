# shellcheck shell=bash disable=SC2034 # a scenario: lab up runs setup(), lab/test reads the rest
DESCRIPTION="the fleet story end to end: netprobe watch --textfile behind the 302 portal, Debian's node_exporter reading the textfile, Debian's Prometheus scraping it every second with the shipped rules; the portal series and the NetprobePortal alert, then, after the user logs in, netprobe_success 1 and the alert gone"
setup() {
    client_ipv4
    dns_vendors
    web_vendors
    portal redirect
}

# fleet_port: a free TCP port on 127.0.0.1 (the kernel's choice, released at once).
fleet_port() {
    python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

# fleet_query PROMQL: the number of series Prometheus answers PROMQL with (on loopback).
fleet_query() {
    curl -fsS --max-time 2 "http://127.0.0.1:$PROM_PORT/api/v1/query" --data-urlencode "query=$1" |
        python3 -c 'import json, sys; print(len(json.load(sys.stdin)["data"]["result"]))'
}

# fleet_alert NAME: NetprobePortal's state in Prometheus (pending, firing) or "none".
fleet_alert() {
    curl -fsS --max-time 2 "http://127.0.0.1:$PROM_PORT/api/v1/alerts" |
        python3 -c 'import json, sys
states = [a["state"] for a in json.load(sys.stdin)["data"]["alerts"] if a["labels"]["alertname"] == sys.argv[1]]
print(states[0] if states else "none")' "$1"
}

# fleet_until SECONDS DESCRIPTION COMMAND...: polls COMMAND (Prometheus has no push to wait
# on) every 0.25 s until it succeeds, at most SECONDS; records the step in check.txt.
fleet_until() {
    local seconds=$1 what=$2 i
    shift 2
    for ((i = 0; i < seconds * 4; i++)); do
        if "$@" >/dev/null 2>&1; then
            echo "ok - $what" >>"$DIR/check.txt"
            return 0
        fi
        sleep 0.25
    done
    echo "not ok - $what (not within $seconds s)" >>"$DIR/check.txt"
    FLEET_FAILED=1
    return 1
}

# Conditions for fleet_until.
fleet_query_is_one() { [ "$(fleet_query "$1")" = 1 ]; }
fleet_alert_active() { case $(fleet_alert "$1") in pending | firing) return 0 ;; esac; return 1; }
fleet_alert_gone() { [ "$(fleet_alert "$1")" = none ]; }

fleet_cleanup() {
    local pid
    for pid in ${FLEET_PIDS:-}; do kill "$pid" 2>/dev/null || true; done
    for pid in ${FLEET_PIDS:-}; do wait "$pid" 2>/dev/null || true; done
    FLEET_PIDS=''
    if [[ -n ${FLEET_DIR:-} ]]; then rm -rf "$FLEET_DIR"; fi
}

scenario_test() {
    local start=$SECONDS rules=$LAB_DIR/../prometheus/netprobe-rules.yml
    FLEET_FAILED=0 FLEET_PIDS=''
    FLEET_DIR=$(mktemp -d /tmp/netprobe-fleet.XXXXXX)
    trap 'fleet_cleanup; LAB_KEEP=0 LAB_QUIET=1 "$LAB" down 2>/dev/null || true; rm -f "$OUT/active"' EXIT
    mkdir -p "$FLEET_DIR/textfile" "$FLEET_DIR/tsdb"
    : >"$DIR/check.txt"
    NODE_PORT=$(fleet_port) PROM_PORT=$(fleet_port)
    cat >"$FLEET_DIR/prometheus.yml" <<YML
global:
  scrape_interval: 1s
  evaluation_interval: 1s
rule_files:
  - $rules
scrape_configs:
  - job_name: node
    static_configs:
      - targets: ['127.0.0.1:$NODE_PORT']
YML
    # netprobe in the lab's client namespace; node_exporter and Prometheus on the host's
    # loopback only, reading the textfile through the shared file system.
    "$LAB" exec netprobe watch --json --hold 0 --textfile "$FLEET_DIR/textfile/netprobe.prom" \
        >"$FLEET_DIR/records.jsonl" 2>"$FLEET_DIR/watch.err" &
    FLEET_PIDS="$FLEET_PIDS $!"
    local watch_pid=$!
    prometheus-node-exporter --web.listen-address="127.0.0.1:$NODE_PORT" --collector.disable-defaults \
        --collector.textfile --collector.textfile.directory="$FLEET_DIR/textfile" >"$FLEET_DIR/node.log" 2>&1 &
    FLEET_PIDS="$FLEET_PIDS $!"
    prometheus --config.file="$FLEET_DIR/prometheus.yml" --storage.tsdb.path="$FLEET_DIR/tsdb" \
        --web.listen-address="127.0.0.1:$PROM_PORT" >"$FLEET_DIR/prometheus.log" 2>&1 &
    FLEET_PIDS="$FLEET_PIDS $!"

    fleet_until 20 "watch wrote the textfile" test -s "$FLEET_DIR/textfile/netprobe.prom"
    fleet_until 30 "Prometheus has node_exporter's scrape of it" fleet_query_is_one 'node_textfile_scrape_error == 0'
    fleet_until 30 "Prometheus sees the portal verdict" fleet_query_is_one 'netprobe_verdict{verdict="portal"} == 1'
    fleet_until 30 "the portal's login host is a label" \
        fleet_query_is_one 'netprobe_portal_info{host="login.portal.test",source="redirect"}'
    fleet_until 30 "NetprobePortal is pending or firing" fleet_alert_active NetprobePortal

    # The user logs in; SIGHUP makes watch check again at once (trigger "signal").
    lab_do portal_off
    kill -HUP "$watch_pid"
    fleet_until 30 "Prometheus sees netprobe_success 1" fleet_query_is_one 'netprobe_success == 1'
    fleet_until 30 "NetprobePortal is gone" fleet_alert_gone NetprobePortal
    fleet_until 10 "the checks are counted" fleet_query_is_one 'netprobe_checks_total >= 2'

    kill -TERM "$watch_pid"
    wait "$watch_pid"
    local rc=$?
    if ((rc == 0)); then echo "ok - watch exits 0 on SIGTERM" >>"$DIR/check.txt"; else
        echo "not ok - watch exited $rc on SIGTERM" >>"$DIR/check.txt"; FLEET_FAILED=1; fi
    if ((FLEET_FAILED)); then
        { echo "--- records"; cat "$FLEET_DIR/records.jsonl"; echo "--- watch stderr"; cat "$FLEET_DIR/watch.err"
          echo "--- textfile"; cat "$FLEET_DIR/textfile/netprobe.prom"; echo "--- prometheus log (last lines)"
          tail -20 "$FLEET_DIR/prometheus.log"; } >>"$DIR/check.txt" 2>&1
    fi
    NP_ELAPSED=$((SECONDS - start))
    sed -i "1i end to end in ${NP_ELAPSED} s" "$DIR/check.txt"
    return "$FLEET_FAILED"
}
