# shellcheck shell=bash disable=SC2034 # a scenario: lab up runs setup(), lab/test reads the rest
DESCRIPTION="network A is a login-page portal whose DHCP server answers a DHCPINFORM with its Captive Portal API (option 114 left out of leases; a real dhcpcd): watched with a state directory, switched to the open network B and back, then watch restarted with the same state directory: one DHCPINFORM over all of it, and every portal record gives the API's login URL"
API_LOGIN_URL="https://login.portal.test/portal?venue=lab"
setup() {
    networks --portal login-page --capport https://capport.portal.test/captive --no-option-114
    dns_vendors
    web_vendors
}
EXPECT_EXIT=2
EXPECT_VERDICT=portal
EXPECT_REASON=capport-captive
CHECKS=()
# Every wait is for a record or a check (lib/watch.sh); the gateway counts the DHCPINFORMs
# (lab counters: dhcp_inform, every server of the run).
scenario_test() {
    # shellcheck source=lab/lib/watch.sh
    source "$LAB_DIR/lib/watch.sh"
    local state=$DIR/state args rc_first='' informs_first='' checks
    mkdir -p "$state"
    args=(--interval 2 --hold 0 --timeout 8 --state-directory "$state")
    if watch_start first "${args[@]}"; then
        checks=$(watch_last checks)
        watch_event "a re-check on A" "checks >= max($checks, 1) + 1" 20 >/dev/null
        lab_do network B
        watch_record "online on B" 'r["verdict"] == "online" and r["network"]["id"] is not None' 20
        lab_do network A
        if watch_record "the portal on A again" 'r["verdict"] == "portal" and r["network"]["id"] is not None' 20; then
            checks=$(watch_last checks)
            watch_event "a re-check on A again" "checks >= $checks + 1" 20 >/dev/null
        fi
    fi
    watch_stop
    rc_first=$WATCH_RC
    informs_first=$("$LAB" counters | python3 -c 'import json, sys; print(json.load(sys.stdin).get("dhcp_inform"))')
    # The same state directory, a new process: what the first one learnt is all it knows.
    if watch_start second "${args[@]}"; then
        watch_event "a re-check after the restart" "checks >= 2" 20 >/dev/null
    fi
    watch_stop
    "$LAB" counters >"$DIR/counters.json" 2>&1 || true
    local judged
    judged=$(python3 - "$DIR" "$rc_first" "$WATCH_RC" "$informs_first" "$API_LOGIN_URL" <<'JUDGE'
import json, os, sys
out, rc_first, rc_second, informs_first, url = sys.argv[1:6]
problems = []
if os.path.exists(os.path.join(out, "problems.txt")):
    problems += open(os.path.join(out, "problems.txt")).read().split("\n")
records = [json.loads(line) for line in open(os.path.join(out, "watch.jsonl")) if line.strip()]
informs = json.load(open(os.path.join(out, "counters.json"))).get("dhcp_inform")
if informs_first != "1" or informs != 1:
    problems.append("DHCPINFORMs at the gateway: %s after the first watch, %s at the end (one)" % (informs_first, informs))
events = [r["event"] for r in records]
if events.count("start") != 2 or events.count("stop") != 2:
    problems.append("events %s (two watches)" % events)
else:
    first = records[0]
    a = first["network"]["id"]
    if (first.get("dhcp_inform") or {}).get("state") != "answered" or (first.get("capport") or {}).get("source") != "dhcpinform":
        problems.append("the first start record: dhcp_inform %s, capport %s" % (first.get("dhcp_inform"), first.get("capport")))
    on_b = [r for r in records if r["verdict"] == "online"]
    if len(on_b) != 1 or on_b[0]["network"]["id"] in (None, a):
        problems.append("B's records %s" % [(r["event"], r["network"]) for r in on_b])
    on_a = [r for r in records if r["network"]["id"] == a]
    # A at the start, back from B, at the restart, and both stops: each the portal with the API's URL.
    if len(on_a) < 5:
        problems.append("A's records %s" % [(r["event"], r["verdict"]) for r in on_a])
    for r in on_a:
        if r["verdict"] != "portal" or (r.get("portal") or {}).get("url") != url:
            problems.append("record %d (%s %s on A): portal %s" % (records.index(r) + 1, r["event"], r["verdict"], r.get("portal")))
    second = records[events.index("start", 1)]
    if second["network"]["id"] != a:
        problems.append("the restarted watch's start record names %s, not A's %s" % (second["network"]["id"], a))
for name, rc in (("first", rc_first), ("second", rc_second)):
    if rc != "0":
        problems.append("the %s watch exited %s on SIGTERM" % (name, rc))
print("; ".join(p for p in problems if p) or "ok")
JUDGE
)
    np_watch_result "$judged" portal,online,portal,portal "A's portal (one DHCPINFORM), B, A again, watch restarted: the API's login URL throughout, no second DHCPINFORM"
}
