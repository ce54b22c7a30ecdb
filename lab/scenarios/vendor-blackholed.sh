# shellcheck shell=bash disable=SC2034 # a scenario: lab up runs setup(), lab/test reads the rest
DESCRIPTION="one vendor's server black-holed, the others fine: online well before the timeout"
setup() {
    client_ipv4
    dns_vendors
    web_vendors
    block "ip daddr $(host_addr connectivitycheck.gstatic.com 4)" drop
    block "ip6 daddr $(host_addr connectivitycheck.gstatic.com 6)" drop
}
EXPECT_EXIT=0
EXPECT_VERDICT=online
EXPECT_REASON=probes-validated
CHECKS=(
    'elapsed < timeout / 2'
    'probe("connectivitycheck.gstatic.com")["outcome"] != "success"'
    'r["quorum"]["success"] >= r["quorum"]["required"]'
    # A plain network: no Captive Portal API announced, no proxy, no lying resolver.
    'r["capport"] is None and r["proxy"] is False and r["dns_hijack"] is False'
    'all(p["dns_hijack"] in (False, None) for p in probes)'
)
