# shellcheck shell=bash disable=SC2034 # a scenario: lab up runs setup(), lab/test reads the rest
DESCRIPTION="HTTP intercepted: 302 whose body carries WISPr XML (WISPr outranks the Location)"
setup() {
    client_ipv4
    dns_vendors
    web_vendors
    portal wispr-redirect
}
EXPECT_EXIT=2
EXPECT_VERDICT=portal
EXPECT_REASON=http-redirect
CHECKS=(
    'r["portal"]["source"] == "wispr"'
    'r["portal"]["url"] == "https://login.portal.test/wispr/login?venue=lab&res=login"'
    'r["portal"]["location_name"] == "Lab Cafe & Bar"'
    'r["portal"]["wispr"]["abort_login_url"] == "https://login.portal.test/wispr/abort"'
    'r["portal"]["status"] == 302'
    'all(p["headers"]["location"] == "http://login.portal.test/login?venue=lab" for p in probes if p["outcome"] == "portal")'
    'not any(p["outcome"] == "success" for p in probes)'
)
