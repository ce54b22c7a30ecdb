# shellcheck shell=bash disable=SC2034 # a scenario: lab up runs setup(), lab/test reads the rest
DESCRIPTION="as the units run it: uid 65534, no capabilities, their seccomp rules; check, wait, watch with -i"
# netprobe-watch.service and netprobe-wait-online.service run netprobe as a dynamic user
# with no capabilities, SystemCallFilter=@system-service minus @privileged and @resources,
# MemoryDenyWriteExecute=yes and RestrictAddressFamilies=AF_NETLINK AF_INET AF_INET6
# AF_UNIX. No systemd is PID 1 here, so this runs the binary under setpriv (uid and gid
# 65534, no groups, empty inheritable, ambient and bounding capability sets, no new
# privileges) and Tests/ecosystem/lib/unit-sandbox.py (the same seccomp rules as systemd
# 252 builds for those settings). What must work unprivileged: netlink dumps and change
# events, SO_BINDTODEVICE for -i, reading resolv.conf, sysfs and the link state.
setup() {
    client_ipv4 --metric 100       # eth0: the preferred default route, behind a 302 portal
    client_leased                  # leased, but no lease names its server: no DHCPINFORM
    client_uplink2 4 --metric 200  # eth1: open
    dns_vendors
    web_vendors
    portal redirect --iif lan0
}
scenario_test() {
    local real=$NETPROBE_BIN
    NETPROBE_BIN=$DIR/netprobe-as-unit
    cat >"$NETPROBE_BIN" <<WRAPPER
#!/bin/sh
exec setpriv --reuid 65534 --regid 65534 --clear-groups --inh-caps=-all --ambient-caps=-all \\
    --bounding-set=-all --no-new-privs -- /usr/bin/python3 "$LAB_DIR/../Tests/ecosystem/lib/unit-sandbox.py" "$real" "\$@"
WRAPPER
    chmod 0755 "$NETPROBE_BIN"
    export NETPROBE_BIN

    # 1. The uid and capabilities really are the unit's (the wrapper itself, checked).
    local ids
    ids=$("$LAB" exec setpriv --reuid 65534 --regid 65534 --clear-groups --inh-caps=-all \
        --ambient-caps=-all --bounding-set=-all --no-new-privs -- sh -c \
        'id -u; id -g; grep -E "^(CapEff|CapBnd|CapAmb|NoNewPrivs)" /proc/self/status | tr -s "\t" " "' 2>&1 | tr '\n' ' ')
    if [[ $ids != "65534 65534 CapEff: 0000000000000000 CapBnd: 0000000000000000 CapAmb: 0000000000000000 NoNewPrivs: 1 " ]]; then
        echo "FAIL identity: $ids" >>"$DIR/steps.txt"
        STEPS_FAILED+=(identity)
    fi

    # 2. A plain check: the default path, eth0, behind the portal.
    TIMEOUT=10 EXPECT_EXIT=2 EXPECT_VERDICT=portal EXPECT_REASON=http-redirect
    CHECKS=(
        'r["portal"]["url"] == "http://login.portal.test/login?venue=lab"'
        'sorted(i["name"] for i in r["interfaces"] if i["name"] != "lo") == ["eth0", "eth1"]'
        'counters["client_syns"] > 0 and counters["uplink2_syns"] == 0'
        # No API known, and no lease names a server to ask: said so, nothing sent, the portal stands.
        'r["dhcp_inform"]["state"] == "no-server" and r["dhcp_inform"]["server"] is None'
        'r["dhcp_inform"]["interface"] == "eth0" and r["capport"] is None'
    )
    lab_do counters_reset
    np_step check check --json --timeout "$TIMEOUT"

    # 3. -i eth1: SO_BINDTODEVICE without CAP_NET_RAW; nothing through eth0.
    TIMEOUT=10 EXPECT_EXIT=0 EXPECT_VERDICT=online EXPECT_REASON=probes-validated
    CHECKS=(
        'r["portal"] is None'
        'counters["uplink2_syns"] > 0 and counters["client_syns"] == 0'
        'path("eth1", None)["verdict"] == "online"'
    )
    lab_do counters_reset
    np_step check-i-eth1 check --json -i eth1 --timeout "$TIMEOUT"

    # 4. wait -i eth1, as netprobe-wait-online.service runs it (with --json to judge it).
    lab_do counters_reset
    np_step wait-i-eth1 wait --json -i eth1 --timeout "$TIMEOUT"

    # 5. watch -i eth1: the start record, then a change record when eth1's default route
    #    goes (a netlink event to an unprivileged subscriber), then SIGTERM: exit 0.
    local out=$DIR/watch.jsonl err=$DIR/watch.stderr.txt pid n rc
    "$LAB" exec netprobe watch --json -i eth1 --interval 60 --timeout 10 >"$out" 2>"$err" &
    pid=$!
    for ((n = 0; n < 150; n++)); do [[ $(grep -c . "$out" 2>/dev/null) -ge 1 ]] && break; sleep 0.1; done
    "$LAB" exec ip route del default dev eth1
    for ((n = 0; n < 150; n++)); do [[ $(grep -c . "$out" 2>/dev/null) -ge 2 ]] && break; sleep 0.1; done
    kill -TERM "$pid" 2>/dev/null
    rc=0
    wait "$pid" || rc=$?
    local judged
    judged=$(python3 -c '
import json, sys
records = [json.loads(line) for line in open(sys.argv[1]) if line.strip()]
got = [(r.get("event"), r["verdict"], r["reason"]) for r in records]
want = [("start", "online", "probes-validated"), ("change", "offline", "no-default-route"), ("stop", "offline", "no-default-route")]
print("ok" if got == want else "records %s, expected %s" % (got, want))' "$out" 2>&1)
    if [[ $judged == ok && $rc == 0 ]] &&
        /usr/bin/python3 "$LAB_DIR/../scripts/validate-json" "$LAB_DIR/../schemas/report.schema.json" "$out" --lines >>"$err" 2>&1; then
        echo "pass watch-i-eth1: start online, change offline no-default-route, stop record and exit 0 on SIGTERM" >>"$DIR/steps.txt"
        STEPS_DONE+=("watch-i-eth1 online,offline")
    else
        echo "FAIL watch-i-eth1: $judged; exit $rc (stderr: $(head -c 600 "$err"))" >>"$DIR/steps.txt"
        STEPS_DONE+=("watch-i-eth1 failed")
        STEPS_FAILED+=(watch-i-eth1)
    fi
    np_steps_result
}
