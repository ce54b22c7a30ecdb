# shellcheck shell=bash disable=SC2034 # a scenario: lab up runs setup(), lab/test reads the rest
DESCRIPTION="link up, address, no default route: offline at once, no packet sent"
setup() {
    client_ipv4 --no-default-route
    dns_vendors
    web_vendors
}
EXPECT_EXIT=1
EXPECT_VERDICT=offline
EXPECT_REASON=no-default-route
CHECKS=(
    'r["fault"] == "route" and r["paths"][0]["fault"] == "route"'
    'r["default_routes"] == []'
    'any(a["address"] == "198.51.100.2" for a in iface("eth0")["addresses"])'
    'all(p["outcome"] == "skipped" for p in probes)'
    # The DNS server is on-link, so even a query could have left: nothing did.
    'counters["client_packets"] == 0'
    'counters["client_eth0_tx"] == 0'  # IPv6 is off on this link: not even ARP or ND left it
    'elapsed < 2'
)
