# shellcheck shell=bash disable=SC2034 # a scenario: lab up runs setup(), lab/test reads the rest
DESCRIPTION="DNS hijack: every name resolves to a private address serving the login page (:443 refused)"
setup() {
    client_ipv4
    dns_hijack
    web_vendors
    block "tcp dport 443" reset
}
EXPECT_EXIT=2
EXPECT_VERDICT=portal
EXPECT_REASON=dns-hijack
CHECKS=(
    'r["dns_hijack"] is True'
    'r["quorum"]["portal"] >= 2'
    'all(p["remote_address"] == "10.66.0.1" and p["dns_hijack"] is True for p in probes if p["outcome"] == "portal")'
    'r["portal"]["source"] == "dns" and r["portal"]["url"] == "http://10.66.0.1/"'
    'probe("www.google.com")["outcome"] in ("failure", "skipped")'
    # Refused before libcurl learned the address: no evidence either way.
    'probe("www.google.com")["dns_hijack"] is None'
    'not any(p["outcome"] == "success" for p in probes)'
    'r["capport"] is None and r["proxy"] is False'
    'r["dns_canary"]["resolved"] is not False'
)
