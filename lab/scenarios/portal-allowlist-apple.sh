# shellcheck shell=bash disable=SC2034 # a scenario: lab up runs setup(), lab/test reads the rest
DESCRIPTION="HTTP intercepted (302) except captive.apple.com, which the portal lets through"
setup() {
    client_ipv4
    dns_vendors
    web_vendors
    portal redirect --allow captive.apple.com
}
EXPECT_EXIT=2
EXPECT_VERDICT=portal
EXPECT_REASON=http-redirect
CHECKS=(
    'probe("captive.apple.com")["outcome"] in ("success", "skipped")'
    'probe("captive.apple.com")["outcome"] != "portal"'
    'r["quorum"]["portal"] >= 2'
    'r["portal"]["url"] == "http://login.portal.test/login?venue=lab" and r["portal"]["source"] == "redirect"'
    'r["portal"]["probe"] != "apple"'
    'r["dns_hijack"] is False'
)
