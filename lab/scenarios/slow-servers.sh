# shellcheck shell=bash disable=SC2034 # a scenario: lab up runs setup(), lab/test reads the rest
DESCRIPTION="every server answers after 1-2 s"
setup() {
    client_ipv4
    dns_vendors
    web_vendors
    slow_servers 1 2
}
EXPECT_EXIT=0
EXPECT_VERDICT=online
EXPECT_REASON=probes-validated
CHECKS=(
    'elapsed >= 1.0'
    'all(p["timings"]["first_byte_ms"] >= 1000 for p in probes if p["outcome"] == "success")'
    'r["quorum"]["success"] >= r["quorum"]["required"]'
    # A plain network: no Captive Portal API announced, no proxy, no lying resolver.
    'r["capport"] is None and r["proxy"] is False and r["dns_hijack"] is False'
    'all(p["dns_hijack"] in (False, None) for p in probes)'
)
