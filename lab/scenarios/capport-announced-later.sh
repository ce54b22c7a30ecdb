# shellcheck shell=bash disable=SC2034 # a scenario: lab up runs setup(), lab/test reads the rest
DESCRIPTION="open network that turns captive on a renewal: networkd rewrites the link state with CAPTIVE_PORTAL=, then with another API; watch with a long --interval"
setup() {
    client_ipv4
    dns_vendors
    web_vendors
}
EXPECT_EXIT=0
EXPECT_VERDICT=online
EXPECT_REASON=probes-validated
CHECKS=()
# watch --interval 600 --hold 0: nothing but the link state file can cause a check or a
# record. Expected: the start record (online); networkd's state naming the unrestricted URN
# (RFC 8910: no portal) is a new URI, so one check, and no record (still online); the same
# state written again is no reason to check (netprobe_checks_total unchanged); within 2 s of
# the state naming the API (which says captive) a portal record with the API's
# user-portal-url, trigger lease; within 2 s of a rewrite naming another API, a record with
# that API's URL; the stop record on SIGTERM.
scenario_test() {
    local out=$DIR/watch.jsonl err=$DIR/watch.stderr.txt prom=$DIR/textfile/netprobe.prom pid rc=0 judged n
    local first second checks_start checks_urn checks_same
    mkdir -p "$DIR/textfile"
    : >"$out"
    "$LAB" exec netprobe watch --json --hold 0 --interval 600 --timeout 5 --textfile "$prom" >"$out" 2>"$err" &
    pid=$!
    checks() { awk '$1 == "netprobe_checks_total" { print $2 }' "$prom" 2>/dev/null; }
    # Woken by the lines themselves (tail -f follows the file with inotify), bounded.
    timeout 15 tail -n +1 -f "$out" | head -n 1 >/dev/null || true
    for ((n = 0; n < 50; n++)); do [[ -n $(checks) ]] && break; sleep 0.1; done
    checks_start=$(checks)
    "$LAB" do capport_announce urn:ietf:params:capport:unrestricted
    for ((n = 0; n < 50; n++)); do [[ $(checks) != "$checks_start" ]] && break; sleep 0.1; done
    checks_urn=$(checks)
    # The same state again: a file event, no change to act on. A bounded wait for a check that must not come.
    "$LAB" do capport_announce urn:ietf:params:capport:unrestricted
    for ((n = 0; n < 15; n++)); do [[ $(checks) != "$checks_urn" ]] && break; sleep 0.1; done
    checks_same=$(checks)
    first=$(date +%s.%N)
    "$LAB" do capport_announce https://capport.portal.test/captive
    timeout 10 tail -n +1 -f "$out" | head -n 2 >/dev/null || true
    second=$(date +%s.%N)
    "$LAB" do capport_announce https://capport.portal.test/captive-other
    timeout 10 tail -n +1 -f "$out" | head -n 3 >/dev/null || true
    kill -TERM "$pid" 2>/dev/null
    wait "$pid" || rc=$?
    judged=$(python3 - "$out" "$rc" "$first" "$second" "$checks_start" "$checks_urn" "$checks_same" <<'JUDGE' 2>&1
import datetime, json, sys
def t(text):
    return datetime.datetime.fromisoformat(text.replace("Z", "+00:00")).timestamp()
out, rc, first, second, start, urn, same = sys.argv[1:]
records = [json.loads(line) for line in open(out) if line.strip()]
got = [(r["event"], r["trigger"], r["verdict"], r["reason"]) for r in records]
want = [("start", "start", "online", "probes-validated"), ("change", "lease", "portal", "capport-captive"),
        ("change", "lease", "portal", "capport-captive"), ("stop", "signal", "portal", "capport-captive")]
problems = []
if got != want:
    problems.append("records %s, expected %s" % (got, want))
else:
    _, portal, other, _ = records
    for record, url, written in ((portal, "https://login.portal.test/portal?venue=lab", float(first)),
                                 (other, "https://login.portal.test/portal?venue=other", float(second))):
        if record["portal"]["url"] != url:
            problems.append("portal url %r, expected %r" % (record["portal"]["url"], url))
        done = t(record["timestamp"]) + record["duration_ms"] / 1000
        if not written <= t(record["timestamp"]) or done > written + 2:
            problems.append("record for %s checked at %s, done %.2f s after the state was written" % (url, record["timestamp"], done - written))
    if other["changed"] != ["portal_url"]:
        problems.append("second record changed %s" % other["changed"])
if not start or urn != str(int(start) + 1):
    problems.append("the unrestricted URN was not checked once: netprobe_checks_total %r -> %r" % (start, urn))
if same != urn:
    problems.append("the same state written again was checked: netprobe_checks_total %r -> %r" % (urn, same))
if rc != "0":
    problems.append("watch exited %s on SIGTERM" % rc)
print("; ".join(problems) or "ok")
JUDGE
)
    np_watch_result "$judged" online,portal,portal "one check for a new URI, none for the same state, a portal within 2 s of each API named"
}
