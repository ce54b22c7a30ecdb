# shellcheck shell=bash disable=SC2034 # a scenario: lab up runs setup(), lab/test reads the rest
DESCRIPTION="portal letting Apple's and Google's check hosts through on :80 and :443, intercepting the rest"
setup() {
    client_ipv4
    dns_vendors
    web_vendors
    portal redirect --allow-tls captive.apple.com --allow-tls connectivitycheck.gstatic.com --allow-tls www.google.com
}
EXPECT_EXIT=2
EXPECT_VERDICT=portal
EXPECT_REASON=http-redirect
CHECKS=(
    # The famous hosts answer as on an open network: a check that asked only them would say online.
    'probe("captive.apple.com")["outcome"] in ("success", "skipped")'
    'probe("www.google.com")["outcome"] in ("success", "skipped")'
    # Every first wave asks a third operator: its probe is intercepted (or dropped), the rest show a quorum.
    'r["quorum"]["portal"] >= r["quorum"]["required"]'
    'r["portal"]["url"] == "http://login.portal.test/login?venue=lab" and r["portal"]["source"] == "redirect"'
    'r["portal"]["probe"] not in ("apple", "google")'
    'r["dns_hijack"] is False'
)
