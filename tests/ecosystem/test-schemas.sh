#!/bin/bash
# The JSON netprobe prints, validated against the shipped JSON Schemas by a real
# validator (scripts/validate-json: python3-jsonschema): `check --json` for online,
# portal and offline scenarios on loopback and in a bare namespace, `wait --json`,
# `watch --json` records across a lost default route, `path --json`; probes.json
# against probes.schema.json; and the schema's reason codes and error classes against
# the man page, both ways.
. "$(dirname "$0")/lib/common.sh"
require_binary
OUT=$WORK/out
mkdir -p "$OUT"
SCHEMAS=$REPO/schemas
validate() { "$PY" "$REPO/scripts/validate-json" "$@"; }

# The validator is real: it rejects what the schemas forbid.
echo '{"schema_version": 1, "verdict": "maybe"}' >"$WORK/bad-report.json"
if validate "$SCHEMAS/report.schema.json" "$WORK/bad-report.json" >/dev/null 2>&1; then
    not_ok "validate-json accepted a report with verdict \"maybe\" and no keys"
else
    ok "validate-json rejects an invalid report"
fi

check "probes.json validates against probes.schema.json" validate "$SCHEMAS/probes.schema.json" "$REPO/probes.json"

in_netns online -- "$REPO/tests/ecosystem/lib/scenarios.sh" "$NETPROBE" "$OUT" checks commands >"$WORK/netns.log" 2>&1 ||
    { not_ok "namespace run failed"; cat "$WORK/netns.log"; }
in_netns lo -- "$REPO/tests/ecosystem/lib/scenarios.sh" "$NETPROBE" "$OUT" bare >>"$WORK/netns.log" 2>&1 ||
    { not_ok "bare namespace run failed"; cat "$WORK/netns.log"; }

field() { "$PY" -c 'import json, sys; print(json.load(open(sys.argv[1]))[sys.argv[2]])' "$1" "$2" 2>/dev/null; }

for expect in "$OUT"/*.expect; do
    name=$(basename "$expect" .expect)
    read -r verdict reason status <"$expect"
    check "$name: check --json validates against report.schema.json" validate "$SCHEMAS/report.schema.json" "$OUT/$name.json"
    expect_eq "$name: verdict, reason and exit status" "$verdict $reason $status" \
        "$(field "$OUT/$name.json" verdict) $(field "$OUT/$name.json" reason) $(cat "$OUT/$name.json.rc")"
    check "$name: its probes.json validates against probes.schema.json" validate "$SCHEMAS/probes.schema.json" "$OUT/$name.probes.json"
done

expect_eq "path --json exits 0 (online namespace)" 0 "$(cat "$OUT/path.rc")"
check "path --json (online namespace) validates against path.schema.json" validate "$SCHEMAS/path.schema.json" "$OUT/path.json"
expect_eq "path --json exits 0 (bare namespace)" 0 "$(cat "$OUT/bare-path.rc")"
check "path --json (bare namespace) validates against path.schema.json" validate "$SCHEMAS/path.schema.json" "$OUT/bare-path.json"

expect_eq "wait --json exits 0 online" 0 "$(cat "$OUT/wait.rc")"
check "wait --json validates against report.schema.json" validate "$SCHEMAS/report.schema.json" "$OUT/wait.json"

expect_eq "watch exits 0 on SIGTERM" 0 "$(cat "$OUT/watch.rc")"
check "watch --json records validate against report.schema.json (JSON Lines)" \
    validate "$SCHEMAS/report.schema.json" "$OUT/watch.jsonl" --lines
expect_eq "watch printed a start record (online), then a change record (offline)" "start online change offline" \
    "$("$PY" -c 'import json, sys
print(" ".join(r.get("event", "?") + " " + r["verdict"] for r in map(json.loads, open(sys.argv[1]))))' "$OUT/watch.jsonl" 2>&1)"

check "reason codes and error classes: schema and man page agree" \
    "$PY" "$REPO/tests/ecosystem/lib/vocabulary.py" "$SCHEMAS/report.schema.json" "$REPO/man/netprobe.1"
finish
