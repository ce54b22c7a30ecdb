# shellcheck shell=bash disable=SC2034 # a scenario: lab up runs setup(), lab/test reads the rest
DESCRIPTION="one vendor answers garbage bytes instead of HTTP, the others fine: online"
setup() {
    client_ipv4
    dns_vendors
    web_vendors
    odd_server garbage captive.apple.com
}
EXPECT_EXIT=0
EXPECT_VERDICT=online
EXPECT_REASON=probes-validated
CHECKS=(
    'probe("captive.apple.com")["outcome"] != "success"'
    'probe("captive.apple.com")["outcome"] == "skipped" or probe("captive.apple.com")["error_class"] == "protocol"'
    'r["portal"] is None'
    # A plain network: no Captive Portal API announced, no proxy, no lying resolver.
    'r["capport"] is None and r["proxy"] is False and r["dns_hijack"] is False'
    'all(p["dns_hijack"] in (False, None) for p in probes)'
)
