#!/bin/bash
# --format prometheus, read by the real tools: `promtool check metrics` (Debian package
# prometheus) and the official Python client's parser, for online, portal and offline
# reports made by the real binary in private network namespaces; label escaping with a
# portal URL carrying quotes and backslashes; and the documented textfile-collector
# recipe (man page and README), run as written.
# shellcheck source=Tests/ecosystem/lib/common.sh
. "$(dirname "$0")/lib/common.sh"
require_binary
OUT=$WORK/out
mkdir -p "$OUT"

if ! command -v promtool >/dev/null; then
    not_ok "promtool not found (scripts/install-deps test installs the Debian package prometheus)"
    finish
fi

# --- the documented recipe (the section's first literal block), extracted from the docs and pointed at a scratch directory ---
man_recipe=$(sed -n '/^\.Sh PROMETHEUS/,/^\.Sh /p' "$REPO/man/netprobe.1" |
    sed -n '/^\.Bd -literal/,/^\.Ed/{p;/^\.Ed/q;}' | sed '1d;$d' | sed 's/\\e/\\/g')
readme_recipe=$(sed -n '/^### Prometheus/,/^##/p' "$REPO/README.md" | sed -n '/^```sh/,/^```/p' | sed '1d;$d')
expect_eq "README and man page give the same textfile recipe" "$man_recipe" "$readme_recipe"
textdir=/var/lib/prometheus/node-exporter
case $man_recipe in
    *"$textdir"*) ok "the recipe writes to $textdir" ;;
    *) not_ok "the recipe does not name $textdir" ;;
esac
printf '%s\n' "$man_recipe" | sed "s#$textdir#$WORK/textfile#g" >"$WORK/recipe.sh"
mkdir -p "$WORK/textfile" "$WORK/bin"
ln -s "$NETPROBE" "$WORK/bin/netprobe"
echo '{"version": 1}' >"$OUT/invalid.probes.json"
cat >"$WORK/recipe-driver.sh" <<DRIVER
#!/bin/bash
# Runs the recipe with /bin/sh as cron would, once per probe set, and keeps what it left.
for case in online portal-511 offline-http invalid; do
    NETPROBE_CONFIG="$OUT/\$case.probes.json" PATH="$WORK/bin:\$PATH" sh "$WORK/recipe.sh"
    echo \$? >"$OUT/recipe-\$case.rc"
    ls -A "$WORK/textfile" >"$OUT/recipe-\$case.ls"
    cp "$WORK/textfile/netprobe.prom" "$OUT/recipe-\$case.prom" 2>/dev/null
done
DRIVER

# --- every scenario, then the recipe, in one namespace; the no-route case in a bare one ---
in_netns online -- bash -c "'$REPO/Tests/ecosystem/lib/scenarios.sh' '$NETPROBE' '$OUT' checks; bash '$WORK/recipe-driver.sh'" \
    >"$WORK/netns.log" 2>&1 || { not_ok "namespace run failed"; cat "$WORK/netns.log"; }
in_netns lo -- "$REPO/Tests/ecosystem/lib/scenarios.sh" "$NETPROBE" "$OUT" bare >>"$WORK/netns.log" 2>&1 ||
    { not_ok "bare namespace run failed"; cat "$WORK/netns.log"; }

verdicts=""
for expect in "$OUT"/*.expect; do
    name=$(basename "$expect" .expect)
    read -r verdict reason status <"$expect"
    verdicts="$verdicts $verdict"
    expect_eq "$name: exit status of --format prometheus" "$status" "$(cat "$OUT/$name.prom.rc")"
    check "$name: promtool check metrics accepts the output, with no lint problem" \
        sh -c 'out=$(promtool check metrics <"$1" 2>&1) && [ -z "$out" ] || { echo "$out"; exit 1; }' - "$OUT/$name.prom"
    check "$name: the client parser reads $verdict/$reason, and every metric is documented" \
        "$PY" "$REPO/Tests/ecosystem/lib/promcheck.py" "$OUT/$name.prom" "$expect" "$OUT/$name.json" "$REPO/man/netprobe.1"
done
for verdict in online portal offline; do
    case $verdicts in *" $verdict"*) ok "a $verdict report was checked" ;; *) not_ok "no $verdict report was made" ;; esac
done

# The portal URL really carried quotes and backslashes into netprobe (so the check of its
# label above means something): the raw Location header in the JSON report has them.
check "portal-redirect: the Location header carried quotes and backslashes" "$PY" -c '
import json, sys
locations = [p["headers"]["location"] or "" for p in json.load(open(sys.argv[1]))["probes"]]
sys.exit(0 if any("\"" in l and "\\" in l for l in locations) else 1)' "$OUT/portal-redirect.json"

# Every metric the man page names is one the sources can emit (no documented ghosts).
for metric in $(sed -n '/^\.Sh PROMETHEUS/,/^\.Sh /p' "$REPO/man/netprobe.1" | grep -o 'netprobe_[a-z_]*' | sort -u); do
    if grep -rqF "\"$metric\"" "$REPO/Sources"; then ok "$metric is emitted by the sources"; else not_ok "$metric is documented but never emitted"; fi
done

# The recipe: each verdict replaced the file whole and left no temporary file behind; an
# invalid probe set (exit 78) left the previous file as it was.
for case in online portal-511 offline-http invalid; do
    expect_eq "recipe ($case): only netprobe.prom is left in the directory" "netprobe.prom" "$(cat "$OUT/recipe-$case.ls" 2>/dev/null)"
done
for case in online portal-511 offline-http; do
    check "recipe ($case): the published file passes promtool" sh -c 'promtool check metrics <"$1"' - "$OUT/recipe-$case.prom"
    read -r verdict _ <"$OUT/$case.expect"
    check "recipe ($case): the published file says $verdict" grep -qx "netprobe_verdict{verdict=\"$verdict\"} 1" "$OUT/recipe-$case.prom"
done
check "recipe (invalid probe set): the previous file is kept unchanged" cmp "$OUT/recipe-offline-http.prom" "$OUT/recipe-invalid.prom"
finish
