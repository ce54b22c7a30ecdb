# shellcheck shell=bash disable=SC2034 # a scenario: lab up runs setup(), lab/test reads the rest
DESCRIPTION="link up, a router (IPv6 default route via fe80::1) but no address: no prefix, no DHCP"
setup() {
    client_ipv6 --link-local-only
    dns_vendors
    web_vendors
}
EXPECT_EXIT=1
EXPECT_VERDICT=offline
EXPECT_REASON=no-address
CHECKS=(
    'r["fault"] == "link" and r["fault_detail"] == "eth0: no global address"'
    'iface("eth0")["up"] and iface("eth0")["carrier"]'
    'not any(a["scope"] in ("global", "site") for a in iface("eth0")["addresses"])'
    '[d["family"] for d in r["default_routes"]] == ["ipv6"]'
    'all(p["outcome"] == "skipped" for p in probes)'
    'counters["client_packets"] == 0'
    'elapsed < 2'
)
