# shellcheck shell=bash disable=SC2034 # a scenario: lab up runs setup(), lab/test reads the rest
DESCRIPTION="open network with downloads and an upload running; one peer dropped, one reset, then the gateway drops everything; watch with a long --interval"
setup() {
    client_ipv4
    dns_vendors
    web_vendors
    bulk_traffic D@203.0.113.10 D@203.0.113.11 U@203.0.113.12
}
EXPECT_EXIT=0
EXPECT_VERDICT=online
EXPECT_REASON=probes-validated
CHECKS=()
# watch --interval 600 --hold 0 --textfile: only the machine's own traffic can tell of a stall.
# Expected: the start record (online); the upload's peer silently dropped (a dead server) and
# then reset (a peer that closed) while the downloads flow: no record, no suspected stall;
# every packet dropped at the gateway: an offline record, trigger stall, done within 20 s of
# the drop, and netprobe_stall_suspected_total 1; the stop record on SIGTERM.
scenario_test() {
    local out=$DIR/watch.jsonl err=$DIR/watch.stderr.txt prom=$DIR/textfile/netprobe.prom pid rc=0 judged n dropped
    local quiet_records quiet_stalls
    mkdir -p "$DIR/textfile"
    : >"$out"
    # The downloads and the upload are running before watch starts.
    flows() { "$LAB" exec ss -tnH state established '( dport = 9000 )' | grep -c .; }
    for ((n = 0; n < 50; n++)); do [[ $(flows) -ge 3 ]] && break; sleep 0.1; done
    "$LAB" exec netprobe watch --json --hold 0 --interval 600 --timeout 5 --textfile "$prom" >"$out" 2>"$err" &
    pid=$!
    stalls() { awk '$1 == "netprobe_stall_suspected_total" { print $2 }' "$prom" 2>/dev/null; }
    timeout 15 tail -n +1 -f "$out" | head -n 1 >/dev/null || true
    # One peer dead, then one closing on us: bounded waits for a record that must not come
    # (each longer than two 3 s polls plus the 2 s of silence a stall needs).
    "$LAB" do block "ip daddr 203.0.113.12" drop
    timeout 9 tail -n +2 -f "$out" | head -n 1 >/dev/null || true
    "$LAB" do unblock
    "$LAB" do block "ip daddr 203.0.113.12" reset
    timeout 9 tail -n +2 -f "$out" | head -n 1 >/dev/null || true
    "$LAB" do unblock
    quiet_records=$(grep -c . "$out")
    quiet_stalls=$(stalls)
    # The upload reconnects (half a second after its reset) before the real outage.
    for ((n = 0; n < 50; n++)); do [[ $(flows) -ge 3 ]] && break; sleep 0.1; done
    dropped=$(date +%s.%N)
    "$LAB" do block all drop
    timeout 30 tail -n +1 -f "$out" | head -n 2 >/dev/null || true
    kill -TERM "$pid" 2>/dev/null
    wait "$pid" || rc=$?
    judged=$(python3 - "$out" "$rc" "$dropped" "$quiet_records" "$quiet_stalls" "$(stalls)" "$DIR/detection.txt" <<'JUDGE' 2>&1
import datetime, json, sys
def t(text):
    return datetime.datetime.fromisoformat(text.replace("Z", "+00:00")).timestamp()
out, rc, dropped, quiet_records, quiet_stalls, stalls, timing = sys.argv[1:]
records = [json.loads(line) for line in open(out) if line.strip()]
got = [(r["event"], r["trigger"], r["verdict"]) for r in records]
want = [("start", "start", "online"), ("change", "stall", "offline"), ("stop", "signal", "offline")]
problems = []
if quiet_records != "1" or quiet_stalls != "0":
    problems.append("a dead or closing peer alone raised something: %s record(s), netprobe_stall_suspected_total %r" % (quiet_records, quiet_stalls))
if got != want:
    problems.append("records %s, expected %s" % (got, want))
else:
    offline = records[1]
    done = t(offline["timestamp"]) + offline["duration_ms"] / 1000 - float(dropped)
    open(timing, "w").write("stall checked %.1f s after the drop, offline record done %.1f s after it\n"
                            % (t(offline["timestamp"]) - float(dropped), done))
    if done > 20:
        problems.append("offline record done %.1f s after the drop" % done)
if stalls != "1":
    problems.append("netprobe_stall_suspected_total %r, expected 1" % stalls)
if rc != "0":
    problems.append("watch exited %s on SIGTERM" % rc)
print("; ".join(problems) or "ok")
JUDGE
)
    np_watch_result "$judged" online,offline "nothing for a dead or a closing peer, offline (trigger stall) within 20 s of the drop: $(cat "$DIR/detection.txt")"
}
