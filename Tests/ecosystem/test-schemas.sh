#!/bin/bash
# The JSON netprobe prints, validated against the shipped JSON Schemas by a real
# validator (scripts/validate-json: python3-jsonschema): `check --json` for online,
# portal and offline scenarios on loopback and in a bare namespace, `wait --json`,
# `watch --json` records across a lost default route, `path --json`; probes.json
# against probes.schema.json; and the schema's reason codes and error classes against
# the man page, both ways. Then the stock validators an admin has, offline (in a namespace
# with no network): check-jsonschema (--schemafile) and Python's jsonschema CLI, on the
# same outputs: every schema stands alone (no $ref to another file or URL). And `report
# --format json` against summary.schema.json, on synthetic and real watch records.
# shellcheck source=Tests/ecosystem/lib/common.sh
. "$(dirname "$0")/lib/common.sh"
require_binary
OUT=$WORK/out
mkdir -p "$OUT"
SCHEMAS=$REPO/schemas
validate() { "$PY" "$REPO/scripts/validate-json" "$@"; }

# The validator runs, and is real: it accepts the shipped probes.json and rejects what the
# schemas forbid. If it cannot run at all, nothing below would mean anything.
if ! validate "$SCHEMAS/probes.schema.json" "$REPO/probes.json" >"$WORK/probes.out" 2>&1; then
    not_ok "scripts/validate-json ($PY) does not accept the shipped probes.json:"
    sed 's/^/    /' "$WORK/probes.out" | tail -n 5
    finish
fi
ok "probes.json validates against probes.schema.json"
echo '{"schema_version": 1, "verdict": "maybe"}' >"$WORK/bad-report.json"
validate "$SCHEMAS/report.schema.json" "$WORK/bad-report.json" >"$WORK/bad-report.out" 2>&1
bad_status=$?
if [ "$bad_status" = 1 ] && grep -q "maybe" "$WORK/bad-report.out"; then
    ok "validate-json rejects an invalid report, naming the bad value"
else
    not_ok "validate-json on an invalid report: exit $bad_status, expected 1 and a message about 'maybe':"
    sed 's/^/    /' "$WORK/bad-report.out"
fi

in_netns online -- "$REPO/Tests/ecosystem/lib/scenarios.sh" "$NETPROBE" "$OUT" checks commands >"$WORK/netns.log" 2>&1 ||
    { not_ok "namespace run failed"; cat "$WORK/netns.log"; }
in_netns lo -- "$REPO/Tests/ecosystem/lib/scenarios.sh" "$NETPROBE" "$OUT" bare >>"$WORK/netns.log" 2>&1 ||
    { not_ok "bare namespace run failed"; cat "$WORK/netns.log"; }

# One validator run per schema (each error line names its file).
names=$(cd "$OUT" && ls -- *.expect | sed 's/\.expect$//')
reports=$(for name in $names; do echo "$OUT/$name.json"; done)
# shellcheck disable=SC2086 # one path per word (no spaces in $WORK)
check "check --json of every scenario ($(echo $names | tr ' ' ',')) validates against report.schema.json" \
    validate "$SCHEMAS/report.schema.json" $reports
# shellcheck disable=SC2046
check "every scenario's probes.json validates against probes.schema.json" \
    validate "$SCHEMAS/probes.schema.json" $(for name in $names; do echo "$OUT/$name.probes.json"; done)
for name in $names; do
    read -r verdict reason status <"$OUT/$name.expect"
    echo "$name $verdict $reason $status"
done >"$WORK/expected.txt"
# shellcheck disable=SC2086
# (Debian 12's jsonschema checks "format": "date-time" only with rfc3339-validator, which
# Debian does not package: the timestamp's RFC 3339 form is checked here instead.)
"$PY" -c 'import datetime, json, re, sys
RFC3339 = re.compile(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?(Z|[+-]\d\d:\d\d)\Z")
for path in sys.argv[1:]:
    name = path.rsplit("/", 1)[1][:-len(".json")]
    try:
        report = json.load(open(path))
        line = [name, report["verdict"], report["reason"], open(path + ".rc").read().strip()]
        stamp = report["timestamp"]
        if not RFC3339.match(stamp) or not datetime.datetime.fromisoformat(stamp.replace("Z", "+00:00")):
            line.append("bad-timestamp:" + stamp)
        print(*line)
    except (ValueError, KeyError, OSError) as error:
        print(name, "unreadable:", error)' $reports >"$WORK/actual.txt"
check "every scenario's verdict, reason, exit status (and RFC 3339 timestamp) are as expected" \
    diff "$WORK/expected.txt" "$WORK/actual.txt"

expect_eq "path --json exits 0 (online and bare namespaces)" "0 0" "$(cat "$OUT/path.rc") $(cat "$OUT/bare-path.rc")"
check "path --json (online and bare namespaces) validates against path.schema.json" \
    validate "$SCHEMAS/path.schema.json" "$OUT/path.json" "$OUT/bare-path.json"

expect_eq "wait --json exits 0 online" 0 "$(cat "$OUT/wait.rc")"
check "wait --json validates against report.schema.json" validate "$SCHEMAS/report.schema.json" "$OUT/wait.json"

expect_eq "watch exits 0 on SIGTERM" 0 "$(cat "$OUT/watch.rc")"
check "watch --json records validate against report.schema.json (JSON Lines)" \
    validate "$SCHEMAS/report.schema.json" "$OUT/watch.jsonl" --lines
expect_eq "watch printed a start record (online), a change record (offline), then its stop record" "start online change offline stop offline" \
    "$("$PY" -c 'import json, sys
print(" ".join(r.get("event", "?") + " " + r["verdict"] for r in map(json.loads, open(sys.argv[1]))))' "$OUT/watch.jsonl" 2>&1)"

# netprobe report --format json: the summary of synthetic records (outages, a portal, malformed
# and out-of-order lines), of the watch records above, and of nothing at all.
"$PY" "$REPO/Tests/ecosystem/lib/synth_watch.py" --days 3 --hostile >"$WORK/synth.jsonl"
"$NETPROBE" report --format json "$WORK/synth.jsonl" >"$OUT/summary-synth.json" 2>/dev/null
expect_eq "report --format json exits 0 on a log with malformed lines" 0 "$?"
"$NETPROBE" report --format json "$OUT/watch.jsonl" >"$OUT/summary-watch.json"
"$NETPROBE" report --format json </dev/null >"$OUT/summary-empty.json"
check "report --format json (synthetic, real watch records, empty) validates against summary.schema.json" \
    validate "$SCHEMAS/summary.schema.json" "$OUT/summary-synth.json" "$OUT/summary-watch.json" "$OUT/summary-empty.json"
check "report --format json of the synthetic log: 2 malformed lines, outages and a portal on wlan0" \
    "$PY" -c 'import json, sys
s = json.load(open(sys.argv[1]))
paths = {(p["interface"], p["family"]): p for p in s["paths"]}
assert s["malformed"] == 2 and s["records"] > 10, (s["malformed"], s["records"])
assert paths[(None, None)]["scope"] == "overall" and paths[("eth0", "ipv4")]["outages"]["count"] > 0
assert paths[("wlan0", "ipv4")]["portal_periods"]["count"] > 0 or paths[("wlan0", "ipv6")]["portal_periods"]["count"] > 0
assert all(p["online_ms"] + p["portal_ms"] + p["offline_ms"] == p["observed_ms"] for p in s["paths"])' "$OUT/summary-synth.json"

check "reason codes and error classes: schema and man page agree" \
    "$PY" "$REPO/Tests/ecosystem/lib/vocabulary.py" "$SCHEMAS/report.schema.json" "$REPO/man/netprobe.1"

# ---- stock validators, offline ---------------------------------------------------------
check "no schema refers to another file or a URL (every \$ref is local: #/...)" \
    sh -c '! grep -n "\"\$ref\": *\"[^#]" "$@"' - "$SCHEMAS"/*.schema.json
check "report.schema.json bundles path.schema.json's \$defs unchanged (copy them over after a change)" \
    "$PY" -c 'import json, sys
report, path = (json.load(open(f)) for f in sys.argv[1:])
differ = [k for k, v in path["$defs"].items() if report["$defs"].get(k) != v]
sys.exit("differ: %s" % differ if differ else 0)' "$SCHEMAS/report.schema.json" "$SCHEMAS/path.schema.json"
# watch's JSON Lines, one file per record (the stock tools read whole documents).
mkdir -p "$OUT/records"
"$PY" -c 'import sys
for n, line in enumerate(open(sys.argv[1]), 1):
    open("%s/watch-%d.json" % (sys.argv[2], n), "w").write(line)' "$OUT/watch.jsonl" "$OUT/records"
# shellcheck disable=SC2206
documents=($reports "$OUT/wait.json" "$OUT"/records/watch-*.json)
summaries=("$OUT"/summary-*.json)
CJS=/opt/netprobe-pytools/bin/check-jsonschema
if [ -x "$CJS" ]; then
    check "check-jsonschema --schemafile report.schema.json: ${#documents[@]} reports, no network" \
        unshare -n -- "$CJS" --schemafile "$SCHEMAS/report.schema.json" "${documents[@]}"
    check "check-jsonschema --schemafile path.schema.json: path --json, no network" \
        unshare -n -- "$CJS" --schemafile "$SCHEMAS/path.schema.json" "$OUT/path.json" "$OUT/bare-path.json"
    check "check-jsonschema --schemafile probes.schema.json: the shipped probes.json, no network" \
        unshare -n -- "$CJS" --schemafile "$SCHEMAS/probes.schema.json" "$REPO/probes.json"
    check "check-jsonschema --schemafile summary.schema.json: report --format json, no network" \
        unshare -n -- "$CJS" --schemafile "$SCHEMAS/summary.schema.json" "${summaries[@]}"
    check "check-jsonschema rejects an invalid report" \
        sh -c '! unshare -n -- "$1" --schemafile "$2" "$3"' - "$CJS" "$SCHEMAS/report.schema.json" "$WORK/bad-report.json"
else
    not_ok "check-jsonschema is not installed at $CJS (scripts/install-deps test)"
fi
instances=()
for d in "${documents[@]}"; do instances+=(--instance "$d"); done
check "jsonschema CLI (python3-jsonschema) with report.schema.json: ${#documents[@]} reports, no network" \
    unshare -n -- /usr/bin/jsonschema "${instances[@]}" "$SCHEMAS/report.schema.json"
check "jsonschema CLI with path.schema.json and probes.schema.json, no network" \
    unshare -n -- sh -c '/usr/bin/jsonschema -i "$1" -i "$2" "$3" && /usr/bin/jsonschema -i "$4" "$5"' - \
    "$OUT/path.json" "$OUT/bare-path.json" "$SCHEMAS/path.schema.json" "$REPO/probes.json" "$SCHEMAS/probes.schema.json"
check "jsonschema CLI with summary.schema.json: report --format json, no network" \
    unshare -n -- /usr/bin/jsonschema $(for d in "${summaries[@]}"; do echo "-i $d"; done) "$SCHEMAS/summary.schema.json"
check "jsonschema CLI rejects an invalid report" \
    sh -c '! unshare -n -- /usr/bin/jsonschema -i "$1" "$2" 2>/dev/null' - "$WORK/bad-report.json" "$SCHEMAS/report.schema.json"
finish
