#!/bin/bash
# Runs INSIDE a namespace made by in_netns (lib/common.sh), with probe_server.py on
# 127.0.0.1:8081 and nothing on 127.0.0.1:8082. Writes the real outputs of the
# netprobe binary for the ecosystem tests to check with real tools.
#
# usage: scenarios.sh NETPROBE OUT GROUP...
#   checks    (online mode) for each scenario S below: OUT/S.json and OUT/S.prom
#             (`netprobe check --format json|prometheus`), their exit statuses in
#             OUT/S.json.rc and OUT/S.prom.rc, and "VERDICT REASON STATUS" expected
#             in OUT/S.expect (the last ones break the path: no carrier, no default
#             route, no address; the path is whole again at the end)
#   commands  (online mode) OUT/path.json, OUT/wait.json, and OUT/watch.jsonl: the
#             records of `netprobe watch --json` across a lost default route
#   bare      (lo mode) OUT/bare.json(.rc), OUT/bare.prom(.rc), OUT/bare-path.json
set -u
NETPROBE=$1 OUT=$2
shift 2
SERVER=http://127.0.0.1:8081
# Quotes, backslashes and a non-ASCII letter in the login URL a portal redirects to:
# the Location header carries them raw (probe_server.py decodes the query).
NASTY_LOCATION='http%3A%2F%2Fportal.example%2Flogin%3Fq%3D%22a%5Cb%22%26u%3D%C3%BC%5C'

# config FILE PROBE_TIMEOUT PATH1 PATH2 PATH3: three probes of three operators, quorum 2,
# each expecting its real endpoint's answer, sent to the given paths of the server.
config() {
    cat >"$1" <<JSON
{
  "version": 1, "timeout": 5, "probe_timeout": $2, "quorum": 2,
  "probes": [
    { "name": "apple", "operator": "apple", "url": "$3",
      "expect": { "status": [200], "body": { "contains": "Success" } } },
    { "name": "google-204", "operator": "google", "url": "$4",
      "expect": { "status": [204], "body": { "exact": "" } } },
    { "name": "firefox.success", "operator": "mozilla", "url": "$5",
      "expect": { "status": [200], "body": { "prefix": "success" } } }
  ]
}
JSON
}

# scenario NAME "VERDICT REASON STATUS" PROBE_TIMEOUT URL1 URL2 URL3
scenario() {
    local name=$1 format ext
    echo "$2" >"$OUT/$name.expect"
    config "$OUT/$name.probes.json" "$3" "$4" "$5" "$6"
    for format in json prometheus; do
        ext=$format
        [ "$format" = prometheus ] && ext=prom
        "$NETPROBE" check --config "$OUT/$name.probes.json" --format "$format" \
            >"$OUT/$name.$ext" 2>"$OUT/$name.$ext.err"
        echo $? >"$OUT/$name.$ext.rc"
    done
}

# until_true TENTHS COMMAND...: polls COMMAND every 0.1 s, at most TENTHS times.
until_true() {
    local tries=$1
    shift
    until "$@"; do
        tries=$((tries - 1))
        [ "$tries" -gt 0 ] || return 1
        sleep 0.1
    done
}

carrier_is() { [ "$(cat /sys/class/net/d0/carrier 2>/dev/null)" = "$1" ]; }
lines_at_least() { [ "$(grep -c . "$1" 2>/dev/null)" -ge "$2" ]; }

online_paths() { echo "$SERVER/hotspot-detect.html $SERVER/generate_204 $SERVER/success.txt"; }

checks() {
    # shellcheck disable=SC2046 # three URLs, word-split on purpose
    scenario online "online probes-validated 0" 3 $(online_paths)
    scenario portal-redirect "portal http-redirect 2" 3 \
        "$SERVER/redirect?location=$NASTY_LOCATION" "$SERVER/redirect?location=$NASTY_LOCATION" \
        "$SERVER/redirect?location=$NASTY_LOCATION"
    scenario portal-511 "portal http-511 2" 3 "$SERVER/511" "$SERVER/511" "$SERVER/511"
    scenario portal-wrong "portal wrong-content 2" 3 "$SERVER/wrong" "$SERVER/wrong" "$SERVER/wrong"
    scenario offline-http "offline http-error 1" 3 "$SERVER/404" "$SERVER/503" "$SERVER/404"
    scenario offline-refused "offline connect-failed 1" 3 \
        http://127.0.0.1:8082/a http://127.0.0.1:8082/b http://127.0.0.1:8082/c
    scenario offline-protocol "offline protocol-error 1" 3 "$SERVER/garbage" "$SERVER/garbage" "$SERVER/garbage"
    scenario offline-timeout "offline timeout 1" 0.3 "$SERVER/stall" "$SERVER/stall" "$SERVER/stall"
    scenario quorum-not-met "offline quorum-not-met 1" 3 "$SERVER/hotspot-detect.html" "$SERVER/404" "$SERVER/404"

    # The path gate: no carrier under the default route, then no default route at all.
    ip link set d1 down
    until_true 50 carrier_is 0 || echo "d0 kept its carrier" >&2
    # shellcheck disable=SC2046
    scenario offline-no-link "offline no-link 1" 3 $(online_paths)
    ip link set d1 up
    until_true 50 carrier_is 1 || echo "d0 got no carrier" >&2
    ip route del default
    # shellcheck disable=SC2046
    scenario offline-no-route "offline no-default-route 1" 3 $(online_paths)
    # A default route out of d0, but no address on it.
    ip addr del 198.51.100.2/24 dev d0
    ip route add default dev d0
    # shellcheck disable=SC2046
    scenario offline-no-address "offline no-address 1" 3 $(online_paths)
    ip route del default
    ip addr add 198.51.100.2/24 dev d0
    ip route add default via 198.51.100.1 dev d0
}

commands() {
    # shellcheck disable=SC2046
    config "$OUT/commands.probes.json" 3 $(online_paths)
    "$NETPROBE" path --json >"$OUT/path.json" 2>"$OUT/path.err"
    echo $? >"$OUT/path.rc"
    "$NETPROBE" wait --json --timeout 5 --config "$OUT/commands.probes.json" >"$OUT/wait.json" 2>"$OUT/wait.err"
    echo $? >"$OUT/wait.rc"

    # watch: the start record, then a change record once the default route goes away.
    "$NETPROBE" watch --json --interval 60 --config "$OUT/commands.probes.json" \
        >"$OUT/watch.jsonl" 2>"$OUT/watch.err" &
    local pid=$!
    until_true 100 lines_at_least "$OUT/watch.jsonl" 1 || echo "watch printed no start record" >&2
    ip route del default
    until_true 100 lines_at_least "$OUT/watch.jsonl" 2 || echo "watch printed no change record" >&2
    kill -TERM "$pid"
    wait "$pid"
    echo $? >"$OUT/watch.rc"
    ip route add default via 198.51.100.1 dev d0
}

bare() {
    # shellcheck disable=SC2046
    config "$OUT/bare.probes.json" 3 $(online_paths)
    "$NETPROBE" check --json --config "$OUT/bare.probes.json" >"$OUT/bare.json" 2>"$OUT/bare.json.err"
    echo $? >"$OUT/bare.json.rc"
    "$NETPROBE" check --format prometheus --config "$OUT/bare.probes.json" >"$OUT/bare.prom" 2>"$OUT/bare.prom.err"
    echo $? >"$OUT/bare.prom.rc"
    echo "offline no-default-route 1" >"$OUT/bare.expect"
    "$NETPROBE" path --json >"$OUT/bare-path.json" 2>"$OUT/bare-path.err"
    echo $? >"$OUT/bare-path.rc"
}

for group in "$@"; do
    "$group"
done
