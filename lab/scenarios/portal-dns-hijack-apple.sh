# shellcheck shell=bash disable=SC2034 # a scenario: lab up runs setup(), lab/test reads the rest
DESCRIPTION="DNS hijack to a private address, but captive.apple.com allow-listed (resolves truly)"
setup() {
    client_ipv4
    dns_hijack captive.apple.com
    web_vendors
    block "tcp dport 443" reset
}
EXPECT_EXIT=2
EXPECT_VERDICT=portal
EXPECT_REASON=dns-hijack
CHECKS=(
    'r["dns_hijack"] is True'
    'probe("captive.apple.com")["outcome"] in ("success", "skipped")'
    'probe("captive.apple.com")["dns_hijack"] in (False, None)'
    'r["quorum"]["portal"] >= 2'
    'all(p["remote_address"] == "10.66.0.1" and p["dns_hijack"] is True for p in probes if p["outcome"] == "portal")'
    'r["portal"]["source"] == "dns" and r["portal"]["url"] == "http://10.66.0.1/"'
)
