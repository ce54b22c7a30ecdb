# shellcheck shell=bash disable=SC2034 # a scenario: lab up runs setup(), lab/test reads the rest
DESCRIPTION="open network whose Captive Portal API session runs out after 8 s (then the API says captive); watch with a long --interval"
setup() {
    client_ipv4
    dns_vendors
    web_vendors
    capport_announce https://capport.portal.test/countdown
    capport_countdown 8
}
EXPECT_EXIT=0
EXPECT_VERDICT=online
EXPECT_REASON=probes-validated
CHECKS=()
# watch --interval 600 --hold 0: nothing but the session's end can cause the second and third
# records. Expected: the start record (portal.expires_at about 8 s ahead), one expiring record
# (trigger expiry, before the end: a tenth of the session ahead of it), then the portal
# (capport-captive, trigger expiry) within two seconds of the end.
scenario_test() {
    local out=$DIR/watch.jsonl err=$DIR/watch.stderr.txt pid rc=0 judged
    : >"$out"
    "$LAB" exec netprobe watch --json --hold 0 --interval 600 --timeout 5 >"$out" 2>"$err" &
    pid=$!
    # Woken by the lines themselves (tail -f follows the file with inotify), bounded.
    timeout 30 tail -n +1 -f "$out" | head -n 3 >/dev/null || true
    kill -TERM "$pid" 2>/dev/null
    wait "$pid" || rc=$?
    judged=$(python3 - "$out" "$rc" <<'JUDGE' 2>&1
import datetime, json, sys
def t(text):
    return datetime.datetime.fromisoformat(text.replace("Z", "+00:00")).timestamp()
records = [json.loads(line) for line in open(sys.argv[1]) if line.strip()]
got = [(r["event"], r["trigger"], r["verdict"], r["reason"]) for r in records]
want = [("start", "start", "online", "probes-validated"), ("expiring", "expiry", "online", "probes-validated"),
        ("change", "expiry", "portal", "capport-captive"), ("stop", "signal", "portal", "capport-captive")]
problems = []
if got != want:
    problems.append("records %s, expected %s" % (got, want))
else:
    start, expiring, portal, _ = records
    end = t(start["portal"]["expires_at"])  # whole seconds, cut: the session ends within the second after it
    if not 6 <= end - t(start["timestamp"]) <= 8:
        problems.append("expires_at %s is not about 8 s after the start %s" % (start["portal"]["expires_at"], start["timestamp"]))
    if not end - 3 <= t(expiring["timestamp"]) < end + 1:
        problems.append("expiring at %s, not shortly before the end %s" % (expiring["timestamp"], start["portal"]["expires_at"]))
    if not end <= t(portal["timestamp"]) <= end + 1 + 2:
        problems.append("portal seen at %s, not within 2 s after the end %s" % (portal["timestamp"], start["portal"]["expires_at"]))
    if portal["portal"]["url"] != "https://login.portal.test/portal?venue=lab":
        problems.append("portal url %r" % portal["portal"]["url"])
if sys.argv[2] != "0":
    problems.append("watch exited %s on SIGTERM" % sys.argv[2])
print("; ".join(problems) or "ok")
JUDGE
)
    np_watch_result "$judged" online,expiring,portal "start, expiring before the end, portal within 2 s after it"
}
