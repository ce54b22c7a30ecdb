# shellcheck shell=bash disable=SC2034 # a scenario: lab up runs setup(), lab/test reads the rest
DESCRIPTION="watch --interval 1 on an open network: once proven open, a re-check is lean (at most 2,000 bytes on the wire, median of five, DNS and every header included); then each allow-listing portal (Apple's host; Apple's and Google's; two operators and a first wave drawn by the lab), switched on with the network proven open again, gives a portal record within 3 re-checks"
setup() {
    client_ipv4
    dns_vendors
    web_vendors
}
EXPECT_EXIT=0
EXPECT_VERDICT=online
EXPECT_REASON=probes-validated
CHECKS=()
# Bytes are the gateway's lan0 counters (both directions, as bench/wire counts them) between the
# end of the check before a lean re-check and the end of the lean re-check, sampled as watch's
# textfile changes (lib/watch_events.py). A lean re-check asks two plain-HTTP operators drawn at
# random: a portal letting two of the five through hides from one in ten, so each portal is
# allowed three re-checks (one in a thousand would miss). The counts go to steps.txt.
scenario_test() {
    # shellcheck source=lab/lib/watch.sh
    source "$LAB_DIR/lib/watch.sh"
    # shellcheck source=lab/lib/allowlist.sh
    source "$LAB_DIR/lib/allowlist.sh"
    local state=$DIR/state lean wire ops=() wave
    mkdir -p "$state"
    if watch_start watch --interval 1 --hold 0 --timeout 5 --state-directory "$state" &&
        watch_event "a first lean re-check (proven open)" 'lean >= 1' 20 >/dev/null; then
        lean=$(watch_last lean)
        if watch_event "five more lean re-checks" "lean >= $lean + 5" 20 >/dev/null; then
            wire=$(python3 - "$DIR/watch.events" "$lean" <<'PY'
import json, statistics, sys
rows = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]
after = int(sys.argv[2])
sizes = [c["bytes"] - p["bytes"] for p, c in zip(rows, rows[1:]) if c["lean"] == p["lean"] + 1 and p["lean"] >= after][:5]
print(" ".join(map(str, sizes)), statistics.median(sizes) if len(sizes) == 5 else "none")
PY
)
            local median=${wire##* }
            if [[ $median != none ]] && python3 -c 'import sys; sys.exit(float(sys.argv[1]) > 2000)' "$median"; then
                echo "pass lean-wire: five lean re-checks, bytes on the gateway's wire: ${wire% *} (median $median, at most 2000)" >>"$DIR/steps.txt"
            else
                echo "lean re-checks on the wire: ${wire% *} (median $median, at most 2000)" >>"$DIR/problems.txt"
            fi
        fi
        watch_portal apple captive.apple.com
        watch_portal apple-google captive.apple.com connectivitycheck.gstatic.com www.google.com
        read -r -a ops <<<"$(allowlist_random_operators)"
        # shellcheck disable=SC2086 # each operator's hosts, one word each
        watch_portal "drawn-${ops[0]}-${ops[1]}" ${ALLOWLIST_OPERATOR_HOSTS[${ops[0]}]} ${ALLOWLIST_OPERATOR_HOSTS[${ops[1]}]}
        wave=$(allowlist_random_wave)
        # shellcheck disable=SC2086 # three hosts
        watch_portal "drawn-wave-${wave// /-}" $wave
    fi
    watch_stop
    local judged
    judged=$(python3 - "$DIR" "$WATCH_RC" <<'JUDGE'
import json, os, sys
out, rc = sys.argv[1:3]
problems = []
if os.path.exists(os.path.join(out, "problems.txt")):
    problems += open(os.path.join(out, "problems.txt")).read().split("\n")
records = [json.loads(line) for line in open(os.path.join(out, "watch.jsonl")) if line.strip()]
if not records or records[0]["event"] != "start" or records[-1]["event"] != "stop":
    problems.append("events %s" % [r["event"] for r in records])
verdicts = []
for r in records:
    if r["event"] == "change" and (not verdicts or verdicts[-1] != r["verdict"]):
        verdicts.append(r["verdict"])
if verdicts != ["portal", "online"] * 4:
    problems.append("changes %s (a portal and online again, four times)" % verdicts)
if rc != "0":
    problems.append("watch exited %s on SIGTERM" % rc)
print("; ".join(p for p in problems if p) or "ok")
JUDGE
)
    np_watch_result "$judged" online,portal,online "lean re-checks at most 2 KB (median of five); each allow-listing portal found within 3 re-checks"
}

# watch_portal LABEL HOST...: on the network proven open, the 302 portal (HTTPS dropped) letting
# each HOST through on :80 and :443 comes; a portal record must follow within 3 re-checks
# (counted: netprobe_checks_total from before the portal to the check that wrote its record;
# a lean re-check that meets the portal runs a full check at once and counts once). Then the
# portal goes: an online record, and lean re-checks again (the network proven open).
watch_portal() {
    local label=$1 before after count lean args=() host sampled
    shift
    for host; do args+=(--allow-tls "$host"); done
    before=$(watch_last checks)
    lab_do portal redirect --https drop "${args[@]}"
    if ! watch_record "portal $label" 'r["verdict"] == "portal"' 30; then
        echo "FAIL portal $label (lets through $*): no portal record" >>"$DIR/steps.txt"
        lab_do portal_off
        return 1
    fi
    # The first check sampled once the record is written is the record's own (the textfile is
    # written with it): its counters are the detection's.
    sampled=$(watch_event "portal $label sampled" "records >= $WATCH_SEEN" 10)
    read -r after lean < <(python3 -c 'import json, sys; e = json.loads(sys.argv[1] or "{}"); print(e.get("checks", -1), e.get("lean", -1))' "$sampled")
    count=$((after - before))
    if ((after >= 0 && count >= 1 && count <= 3)); then
        echo "pass portal $label (lets through $*): portal record after $count re-check(s) (at most 3)" >>"$DIR/steps.txt"
    else
        echo "portal $label (lets through $*): portal record after $count re-check(s) (1 to 3)" >>"$DIR/problems.txt"
    fi
    lab_do portal_off
    watch_record "online after portal $label" 'r["verdict"] == "online"' 30 || return 1
    watch_event "lean re-checks again after portal $label" "lean > $lean" 20 >/dev/null
}
