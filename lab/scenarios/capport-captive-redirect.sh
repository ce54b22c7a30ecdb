# shellcheck shell=bash disable=SC2034 # a scenario: lab up runs setup(), lab/test reads the rest
DESCRIPTION="302 portal that also announces its API: reason from the probes, login URL from the API"
setup() {
    client_ipv4
    dns_vendors
    web_vendors
    portal redirect
    capport_announce https://capport.portal.test/captive
}
EXPECT_EXIT=2
EXPECT_VERDICT=portal
EXPECT_REASON=http-redirect   # the portal speaking on a probe outranks capport-captive
CHECKS=(
    'r["capport"]["state"] == "answered" and r["capport"]["captive"] is True'
    'r["portal"]["source"] == "capport" and r["portal"]["url"] == "https://login.portal.test/portal?venue=lab"'
    'any(p["outcome"] == "portal" and p["headers"]["location"] == "http://login.portal.test/login?venue=lab" for p in probes)'
)
