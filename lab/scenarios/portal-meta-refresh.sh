# shellcheck shell=bash disable=SC2034 # a scenario: lab up runs setup(), lab/test reads the rest
DESCRIPTION='HTTP intercepted: a page that moves on with <meta http-equiv="refresh">'
setup() {
    client_ipv4
    dns_vendors
    web_vendors
    portal meta-refresh
}
EXPECT_EXIT=2
EXPECT_VERDICT=portal
EXPECT_REASON=wrong-content
CHECKS=(
    'r["portal"]["source"] == "meta-refresh"'
    'r["portal"]["url"] == "http://login.portal.test/login?venue=lab&from=meta"'
    'r["portal"]["wispr"] is None and r["portal"]["login_url"] is None'
    'r["portal"]["status"] == 200'
    'not any(p["outcome"] == "success" for p in probes)'
)
