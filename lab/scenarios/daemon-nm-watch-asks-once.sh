# shellcheck shell=bash disable=SC2034 # a scenario: lab up runs setup(), lab/test reads the rest
DESCRIPTION="the real NetworkManager 1.42 drops the API's option 114 behind a login-page portal; watch re-checks every second as netprobe-watch.service runs it (uid 65534, CAP_NET_BIND_SERVICE and CAP_NET_RAW, its seccomp rules with AF_PACKET): the lease's server is asked once, every re-check uses its answer"
setup() {
    dhcp_server --capport https://capport.portal.test/captive
    nm_client
    echo "nameserver $GW_V4" >"/etc/netns/$CLIENT_NS/resolv.conf"
    dns_vendors
    web_vendors
    portal login-page
}
scenario_test() {
    local out=$DIR/watch.jsonl err=$DIR/watch.stderr.txt textfile=$DIR/unit/netprobe.prom pid n rc judged
    mkdir -p "$DIR/unit" && chmod 0777 "$DIR/unit"
    lab_do counters_reset
    "$LAB" exec setpriv --reuid 65534 --regid 65534 --clear-groups \
        --inh-caps=-all,+net_bind_service,+net_raw --ambient-caps=-all,+net_bind_service,+net_raw \
        --bounding-set=-all,+net_bind_service,+net_raw --no-new-privs -- \
        /usr/bin/python3 "$LAB_DIR/../Tests/ecosystem/lib/unit-sandbox.py" --packet "$NETPROBE_BIN" \
        watch --json --interval 1 --textfile "$textfile" --timeout 8 >"$out" 2>"$err" &
    pid=$!
    # Five checks: the start and four re-checks, each behind the portal (bounded: 30 s).
    for ((n = 0; n < 300; n++)); do
        grep -qE '^netprobe_checks_total 5$' "$textfile" 2>/dev/null && break
        sleep 0.1
    done
    kill -TERM "$pid" 2>/dev/null
    rc=0
    wait "$pid" || rc=$?
    "$LAB" counters >"$DIR/counters.json" 2>&1 || true
    judged=$(python3 - "$out" "$textfile" "$DIR/counters.json" "$rc" <<'PY'
import json, re, sys
records = [json.loads(line) for line in open(sys.argv[1]) if line.strip()]
checks = re.search(r"^netprobe_checks_total (\d+)$", open(sys.argv[2]).read(), re.M)
informs = json.load(open(sys.argv[3])).get("dhcp_inform")
first = records[0] if records else {}
problems = []
if sys.argv[4] != "0": problems.append("exit %s" % sys.argv[4])
if not checks or int(checks.group(1)) < 5: problems.append("checks %s" % (checks and checks.group(1)))
if informs != 1: problems.append("DHCPINFORMs seen at the gateway: %s" % informs)
if first.get("verdict") != "portal" or (first.get("dhcp_inform") or {}).get("state") != "answered":
    problems.append("start record %s %s" % (first.get("verdict"), first.get("dhcp_inform")))
if (first.get("capport") or {}).get("source") != "dhcpinform": problems.append("capport %s" % first.get("capport"))
if [r.get("event") for r in records] != ["start", "stop"]: problems.append("events %s" % [r.get("event") for r in records])
if records and (records[-1].get("dhcp_inform") or {}).get("remembered") is not True:
    problems.append("stop record's dhcp_inform %s" % records[-1].get("dhcp_inform"))
print("ok" if not problems else "; ".join(problems))
PY
)
    np_watch_result "$judged" "portal,portal" "start portal through the API the DHCPINFORM found, four re-checks, one DHCPINFORM at the gateway"
}
