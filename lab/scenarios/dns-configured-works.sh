# shellcheck shell=bash disable=SC2034 # a scenario: lab up runs setup(), lab/test reads the rest
DESCRIPTION="the configured resolver (the gateway) works; networkd recorded another one for the link (203.0.113.54): online, the link's resolver never asked"
setup() {
    client_ipv4
    dns_vendors
    web_vendors
    count_to link_dns 203.0.113.54
    link_dns_announce networkd 203.0.113.54
}
TIMEOUT=8
EXPECT_EXIT=0
EXPECT_VERDICT=online
EXPECT_REASON=probes-validated
CHECKS=(
    'r["dns"]["used"] == "configured" and r["dns"]["link"] == ["203.0.113.54"] and r["dns"]["link_asked"] is False'
    'all(p["resolver"] in ("configured", None) for p in probes)'
    'counters["link_dns"] == 0'
)
