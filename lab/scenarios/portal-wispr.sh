# shellcheck shell=bash disable=SC2034 # a scenario: lab up runs setup(), lab/test reads the rest
DESCRIPTION="HTTP intercepted: a login page carrying WISPr XML (login URL, location name)"
setup() {
    client_ipv4
    dns_vendors
    web_vendors
    portal wispr
}
EXPECT_EXIT=2
EXPECT_VERDICT=portal
EXPECT_REASON=wrong-content
CHECKS=(
    'r["portal"]["source"] == "wispr"'
    # The XML's &amp; decoded, and LoginURL outranks the form's action.
    'r["portal"]["url"] == "https://login.portal.test/wispr/login?venue=lab&res=login"'
    'r["portal"]["login_url"] == "https://login.portal.test/wispr/login?venue=lab&res=login"'
    'r["portal"]["location_name"] == "Lab Cafe & Bar"'
    'r["portal"]["wispr"] == {"message_type": 100, "response_code": 0, "login_url": "https://login.portal.test/wispr/login?venue=lab&res=login", "abort_login_url": "https://login.portal.test/wispr/abort", "location_name": "Lab Cafe & Bar", "access_location": "isocc=zz,network=LAB", "access_procedure": "1.0"}'
    'r["portal"]["status"] == 200'
    'any(p["outcome"] == "portal" and p["error_class"] == "wrong-content" for p in probes)'
    'not any(p["outcome"] == "success" for p in probes)'
    'r["capport"] is None and r["dns_hijack"] is False and r["proxy"] is False'
)
