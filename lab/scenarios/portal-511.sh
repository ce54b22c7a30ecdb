# shellcheck shell=bash disable=SC2034 # a scenario: lab up runs setup(), lab/test reads the rest
DESCRIPTION="HTTP intercepted: 511 Network Authentication Required"
setup() {
    client_ipv4
    dns_vendors
    web_vendors
    portal 511
}
EXPECT_EXIT=2
EXPECT_VERDICT=portal
EXPECT_REASON=http-511
CHECKS=(
    'r["portal"] is not None and r["portal"]["status"] == 511'
    'any(p["outcome"] == "portal" and p["status"] == 511 for p in probes)'
    'not any(p["outcome"] == "success" for p in probes)'
    # A plain network: no Captive Portal API announced, no proxy, no lying resolver.
    'r["capport"] is None and r["proxy"] is False and r["dns_hijack"] is False'
    'all(p["dns_hijack"] in (False, None) for p in probes)'
    # The 511 page's meta refresh (RFC 6585's example) says where to log in.
    'r["portal"]["source"] == "meta-refresh" and r["portal"]["url"] == "http://login.portal.test/login?venue=lab"'
)
