#!/bin/bash
# The fleet files in prometheus/: the alerting and recording rules pass `promtool check
# rules` and their own `promtool test rules` suite (every alert fires, does not fire, waits
# for its `for:`, carries its labels and annotations; the recording rules' values); the
# Grafana dashboard is valid JSON whose every query parses as PromQL (promtool checks each as
# a recording rule); and every metric the rules and the dashboard use is one netprobe writes
# (a `netprobe_` name the sources emit, a recording rule of netprobe-rules.yml, or
# node_exporter's textfile mtime).
# shellcheck source=Tests/ecosystem/lib/common.sh
. "$(dirname "$0")/lib/common.sh"
RULES=$REPO/prometheus/netprobe-rules.yml
# python3-yaml (a dependency of Debian's prometheus tooling) reads the rules' queries.
DASHBOARD=$REPO/prometheus/grafana-netprobe.json

if ! command -v promtool >/dev/null; then
    not_ok "promtool not found (scripts/install-deps test installs the Debian package prometheus)"
    finish
fi

check "promtool check rules accepts netprobe-rules.yml" promtool check rules "$RULES"
check "promtool test rules passes netprobe-rules.test.yml" sh -c "cd '$REPO/prometheus' && promtool test rules netprobe-rules.test.yml"

for alert in NetprobeOffline NetprobePortal NetprobePathDown NetprobePortalSessionExpiring NetprobeStale; do
    check "the rules define $alert" grep -q "alert: $alert\$" "$RULES"
    check "the rule tests exercise $alert" grep -q "alertname: $alert\$" "$REPO/prometheus/netprobe-rules.test.yml"
done

# Every dashboard query, $instance made a regular expression, as a recording rule promtool parses.
if "$PY" - "$DASHBOARD" "$WORK/dashboard-rules.yml" <<'PY'; then
import json, sys
dashboard = json.load(open(sys.argv[1]))
exprs = [t["expr"] for p in dashboard["panels"] for t in p.get("targets", [])]
assert exprs, "no queries"
with open(sys.argv[2], "w") as out:
    out.write("groups:\n  - name: dashboard\n    rules:\n")
    for i, expr in enumerate(exprs):
        out.write("      - record: dashboard:query%d\n        expr: %s\n" % (i, json.dumps(expr.replace("$instance", ".*"))))
PY
    ok "the dashboard is valid JSON with queries"
    check "every dashboard query parses (promtool check rules)" promtool check rules "$WORK/dashboard-rules.yml"
else
    not_ok "the dashboard is not valid JSON with queries"
fi

# The metric names netprobe writes: the string literals its sources give MetricWriter.
grep -rhoE '"netprobe_[a-z0-9_]+"' "$REPO/Sources" | tr -d '"' | sort -u >"$WORK/written.txt"
grep -oE '^ *- record: [a-z0-9_:]+' "$RULES" | awk '{print $3}' | sort -u >"$WORK/recorded.txt"
# The queries themselves (rules' exprs and the dashboard's targets), not their prose.
"$PY" - "$RULES" "$DASHBOARD" >"$WORK/exprs.txt" <<'PY'
import json, re, sys, yaml
def bare(expr):
    return re.sub(r'"[^"]*"', '""', expr)  # label values are not metric names
for group in yaml.safe_load(open(sys.argv[1]))["groups"]:
    for rule in group["rules"]:
        print(bare(rule["expr"]))
for panel in json.load(open(sys.argv[2]))["panels"]:
    for target in panel.get("targets", []):
        print(bare(target["expr"]))
PY
used=$(grep -oE '\b(netprobe[a-z0-9_:]*|node_[a-z0-9_]+)' "$WORK/exprs.txt" | sort -u)
for name in $used; do
    case $name in
        node_textfile_mtime_seconds) ok "uses node_exporter's $name" ;;
        *:*) check "the recording rule $name exists" grep -qx "$name" "$WORK/recorded.txt" ;;
        netprobe_*) check "netprobe writes $name" grep -qx "$name" "$WORK/written.txt" ;;
        *) not_ok "$name is not a metric netprobe or node_exporter writes" ;;
    esac
done
finish
