# shellcheck shell=bash disable=SC2034 # a scenario: lab up runs setup(), lab/test reads the rest
DESCRIPTION="the default desktop on an open network: the real NetworkManager (internal DHCP client) leases eth0 and hands the gateway's resolver over the bus to the real systemd-resolved (plain DNS): online, the stub's upstreams and the link's resolvers both from their owners over D-Bus, the link's resolver never asked by netprobe"
setup() {
    dhcp_server
    resolved
    nm_client --dns systemd-resolved
    dns_vendors
    web_vendors
}
TIMEOUT=8
EXPECT_EXIT=0
EXPECT_VERDICT=online
EXPECT_REASON=probes-validated
CHECKS=(
    'r["dns"]["upstreams"] == ["198.51.100.1"] and r["dns"]["upstreams_transport"] == "plain"'
    'r["dns"]["used"] == "configured" and r["dns"]["link_asked"] is False'
    'elapsed < 2'
)
# `path --json` asks the stub's owner as the check does: both say the same of every DNS key
# they share (the upstreams, their source and transport).
scenario_test() {
    default_test || return 1
    if ! "$LAB" exec netprobe path --json >"$DIR/path.json" 2>>"$DIR/stderr.txt"; then
        echo "path --json failed" >>"$DIR/check.txt"
        return 1
    fi
    python3 - "$DIR/report.json" "$DIR/path.json" >>"$DIR/check.txt" <<'PY'
import json, sys
check = json.load(open(sys.argv[1]))["dns"]
path = json.load(open(sys.argv[2]))["dns"]
shared = sorted(set(check) & set(path))
differ = {key: (check[key], path[key]) for key in shared if check[key] != path[key]}
if differ or "upstreams_transport" not in shared:
    print("path --json and check --json disagree on dns: %s (shared keys %s)" % (differ, shared))
    sys.exit(1)
print("path --json agrees with the check on dns: %s" % ", ".join(shared))
PY
}
