# shellcheck shell=bash disable=SC2034 # a scenario: lab up runs setup(), lab/test reads the rest
DESCRIPTION="link without carrier (the far end of the cable is down)"
setup() {
    client_ipv4
    dns_vendors
    web_vendors
    carrier off
}
EXPECT_EXIT=1
EXPECT_VERDICT=offline
EXPECT_REASON=no-link
CHECKS=(
    'r["fault"] == "link" and r["fault_detail"].startswith("eth0: no carrier")'
    'iface("eth0")["up"] and not iface("eth0")["carrier"]'
    'all(p["outcome"] == "skipped" for p in probes)'
    'counters["client_packets"] == 0'
    'counters["client_eth0_tx"] == 0'  # IPv6 is off on this link: not even ARP or ND left it
    'elapsed < 2'
)
