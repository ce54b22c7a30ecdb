# shellcheck shell=bash disable=SC2034 # a scenario: lab up runs setup(), lab/test reads the rest
DESCRIPTION="the refusing portal, the link's resolver read from a dhcpcd lease (DHCP option 6): portal through it"
setup() {
    client_ipv4
    dns_vendors
    web_vendors
    portal redirect
    own_resolver 203.0.113.53 refuse
    link_dns_announce dhcpcd 198.51.100.1
}
TIMEOUT=8
EXPECT_EXIT=2
EXPECT_VERDICT=portal
EXPECT_REASON=http-redirect
CHECKS=(
    'r["portal"]["url"] == "http://login.portal.test/login?venue=lab"'
    'r["dns"]["used"] == "link" and r["dns"]["link_source"] == "dhcpcd"'
    'elapsed < 2'
)
