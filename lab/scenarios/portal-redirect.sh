# shellcheck shell=bash disable=SC2034 # a scenario: lab up runs setup(), lab/test reads the rest
DESCRIPTION="HTTP intercepted: 302 to the portal's login page (HTTPS dropped)"
setup() {
    client_ipv4
    dns_vendors
    web_vendors
    portal redirect
}
EXPECT_EXIT=2
EXPECT_VERDICT=portal
EXPECT_REASON=http-redirect
CHECKS=(
    'r["portal"]["url"] == "http://login.portal.test/login?venue=lab"'
    'any(p["outcome"] == "portal" and p["status"] == 302 for p in probes)'
    'any(p["headers"]["location"] == "http://login.portal.test/login?venue=lab" for p in probes)'
    'not any(p["outcome"] == "success" for p in probes)'
    # A plain network: no Captive Portal API announced, no proxy, no lying resolver.
    'r["capport"] is None and r["proxy"] is False and r["dns_hijack"] is False'
    'all(p["dns_hijack"] in (False, None) for p in probes)'
    'r["portal"]["source"] == "redirect" and r["portal"]["wispr"] is None'
    # A static address (no lifetime): no DHCP server to ask for the API, so no DHCPINFORM
    # waits out its 500 ms bound; the report says why.
    'r["dhcp_inform"]["state"] == "static-address" and r["dhcp_inform"]["duration_ms"] is None'
    'any(a["address"] == r["dhcp_inform"]["client_address"] and a["dynamic"] is False and a["valid_lifetime_s"] is None for i in r["interfaces"] for a in i["addresses"])'
    'r["duration_ms"] < 400'
)
