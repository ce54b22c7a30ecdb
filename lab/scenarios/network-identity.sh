# shellcheck shell=bash disable=SC2034 # a scenario: lab up runs setup(), lab/test reads the rest
DESCRIPTION="two networks behind one client: checks on one give one network.id, the other (another gateway MAC and domain, then another DHCP server) another; watch names each record's network across a hung router (still home) and a switch (carrier off, the other router, carrier on), and report splits the time between them"
HOME_MAC=02:00:5e:00:53:01
OFFICE_MAC=02:00:5e:00:53:02
# lease SERVER: dhclient's lease of eth0, naming SERVER (option 54).
lease() {
    lab_do lease_file dhcp/dhclient.eth0.leases "$(printf 'lease {\n  interface "eth0";\n  fixed-address 198.51.100.2;\n  option dhcp-server-identifier %s;\n  expire 4 2099/12/31 00:00:00;\n}\n' "$1")"
}
setup() {
    client_ipv4
    dns_vendors
    web_vendors
    gateway_mac "$HOME_MAC"
    search_domain home.example
}
TIMEOUT=8
EXPECT_EXIT=0
EXPECT_VERDICT=online
EXPECT_REASON=probes-validated
# ident: the network the check named, for the later steps' expectations.
ident() { python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["network"]["id"])' "$DIR/$1.report.json" 2>/dev/null; }
scenario_test() {
    lease 198.51.100.1
    CHECKS=(
        "r['network'] == {'id': r['network']['id'], 'gateway_mac': '$HOME_MAC', 'dhcp_server': '198.51.100.1', 'domain': 'home.example', 'ssid': None}"
        'len(r["network"]["id"]) == 12 and set(r["network"]["id"]) <= set("0123456789abcdef") and all(p["network"] == r["network"] for p in r["paths"])'
    )
    np_step home-1 check --json --timeout "$TIMEOUT"
    local home
    home=$(ident home-1)
    CHECKS+=("r['network']['id'] == '$home'")
    np_step home-2 check --json --timeout "$TIMEOUT"
    np_run_text check --timeout "$TIMEOUT"
    CHECKS=("text.splitlines()[0].startswith('online on home.example ')" "'network $home: domain home.example, gateway $HOME_MAC, dhcp server 198.51.100.1' in text")
    np_step home-text check --json --timeout "$TIMEOUT"
    rm -f "$DIR/text.txt"

    # watch across the switch: home for a while, its router hung for a while (ARP unanswered:
    # still home, an outage there), the cable out, the office's router, the cable in.
    local out=$DIR/watch.jsonl err=$DIR/watch.stderr.txt pid rc=0 n t0 t1 t2 t3
    : >"$out"
    t0=$(date +%s.%N)
    "$LAB" exec netprobe watch --json --hold 0 --interval 2 --timeout 2 >"$out" 2>"$err" &
    pid=$!
    timeout 15 tail -n +1 -f "$out" | head -n 1 >/dev/null || true
    sleep 2
    lab_do gateway_silent 4
    timeout 15 tail -n +1 -f "$out" | head -n 2 >/dev/null || true
    "$LAB" gw nft delete table arp lab_silent
    timeout 15 tail -n +1 -f "$out" | head -n 3 >/dev/null || true
    sleep 1
    t1=$(date +%s.%N)
    lab_do carrier off
    lab_do gateway_mac "$OFFICE_MAC"
    lab_do search_domain office.example
    timeout 10 tail -n +1 -f "$out" | head -n 4 >/dev/null || true
    t2=$(date +%s.%N)
    lab_do carrier on
    timeout 15 tail -n +1 -f "$out" | head -n 5 >/dev/null || true
    sleep 3
    t3=$(date +%s.%N)
    kill -TERM "$pid" 2>/dev/null
    wait "$pid" || rc=$?
    "$LAB" exec netprobe report --format json "$out" >"$DIR/summary.json" 2>>"$err" || true
    local judged office
    judged=$(python3 - "$out" "$DIR/summary.json" "$rc" "$home" "$OFFICE_MAC" "$t0" "$t1" "$t2" "$t3" <<'JUDGE' 2>&1
import json, sys
out, summary, rc, home, office_mac = sys.argv[1:6]
t0, t1, t2, t3 = map(float, sys.argv[6:10])
records = [json.loads(line) for line in open(out) if line.strip()]
got = [(r["event"], r["verdict"], r["network"]["id"]) for r in records]
problems = []
want = [("start", "online"), ("change", "offline"), ("change", "online"), ("change", "offline"), ("change", "online"), ("stop", "online")]
if [g[:2] for g in got] != want:
    problems.append("records %s" % got)
else:
    start, hung, back, down, office, stop = records
    if start["network"]["id"] != home:
        problems.append("the start record's network %s, the checks' %s" % (start["network"]["id"], home))
    # The hung router is still home's: the address last seen, the same id, no network change.
    if hung["fault"] != "gateway" or hung["network"]["id"] != home or hung["network"]["gateway_mac"] is None or "network" in hung["changed"]:
        problems.append("the hung router's record: fault %s, changed %s, network %s" % (hung["fault"], hung["changed"], hung["network"]))
    if back["network"]["id"] != home or back["changed"] != ["verdict", "reason"]:
        problems.append("home again: changed %s, network %s" % (back["changed"], back["network"]))
    if down["network"]["id"] is not None:
        problems.append("the link down named a network: %s" % down["network"])
    if office["network"]["gateway_mac"] != office_mac or office["network"]["domain"] != "office.example" or office["network"]["id"] in (None, home):
        problems.append("the office record's network %s" % office["network"])
    if stop["network"] != office["network"]:
        problems.append("the stop record's network %s" % stop["network"])
    if office["changed"] != ["verdict", "reason", "network"]:
        problems.append("the office record changed %s" % office["changed"])
    try:
        s = json.load(open(summary))
        nets = {n["id"]: n for n in s["networks"]}
        if set(nets) != {home, office["network"]["id"]}:
            problems.append("report networks %s" % list(nets))
        else:
            # Each network's time against the lab's clock: home from the start to the cable out,
            # the office from the cable in to the stop (within 2 s: the checks' own time).
            for net, name, lab in ((nets[home], "home.example", t1 - t0), (nets[office["network"]["id"]], "office.example", t3 - t2)):
                outages = 1 if name == "home.example" else 0
                if net["name"] != name or abs(net["observed_ms"] / 1000 - lab) > 2 or net["outages"] != outages \
                        or net["online_ms"] + net["offline_ms"] != net["observed_ms"] or (net["offline_ms"] > 0) != (outages > 0):
                    problems.append("network %s: %s, the lab's clock %.2f s" % (name, net, lab))
    except (OSError, ValueError, KeyError) as error:
        problems.append("report: %r" % error)
if rc != "0":
    problems.append("watch exited %s on SIGTERM" % rc)
print("; ".join(problems) or "ok")
JUDGE
)
    np_watch_result "$judged" online,offline,online,offline,online "home, its router hung (still home), the cable out, the office: each record names its network, report splits the time" || true
    if ! /usr/bin/python3 "$LAB_DIR/../scripts/validate-json" "$LAB_DIR/../schemas/summary.schema.json" "$DIR/summary.json" >>"$DIR/steps.txt" 2>&1; then
        echo "FAIL report: does not match schemas/summary.schema.json" >>"$DIR/steps.txt"
        STEPS_FAILED+=(summary-schema)
    fi
    office=$(python3 -c 'import json, sys; print([json.loads(l) for l in open(sys.argv[1]) if l.strip()][-1]["network"]["id"])' "$out" 2>/dev/null)

    # The office checked again: the id watch named. Then another DHCP server alone: another network.
    CHECKS=("r['network']['id'] == '$office' and r['network']['id'] != '$home'" "r['network']['gateway_mac'] == '$OFFICE_MAC'")
    np_step office check --json --timeout "$TIMEOUT"
    lease 198.51.100.67
    CHECKS=("r['network']['dhcp_server'] == '198.51.100.67' and r['network']['id'] not in ('$office', '$home')")
    np_step other-server check --json --timeout "$TIMEOUT"
    np_steps_result
}
