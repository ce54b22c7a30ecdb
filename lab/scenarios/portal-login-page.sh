# shellcheck shell=bash disable=SC2034 # a scenario: lab up runs setup(), lab/test reads the rest
DESCRIPTION="HTTP intercepted: the login page served with 200 in place of every page"
setup() {
    client_ipv4
    dns_vendors
    web_vendors
    portal login-page
}
EXPECT_EXIT=2
EXPECT_VERDICT=portal
EXPECT_REASON=wrong-content
CHECKS=(
    'r["portal"] is not None and r["portal"]["status"] == 200'
    # The form's POST target is no page to open, and the network named none: the probe's own page.
    'probe_page(r)'
    'any(p["outcome"] == "portal" and p["status"] == 200 for p in probes)'
    'not any(p["outcome"] == "success" for p in probes)'
    # A plain network: no Captive Portal API announced, no proxy, no lying resolver.
    'r["capport"] is None and r["proxy"] is False and r["dns_hijack"] is False'
    'all(p["dns_hijack"] in (False, None) for p in probes)'
)
