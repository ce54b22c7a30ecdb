# shellcheck shell=bash disable=SC2034 # a scenario: lab up runs setup(), lab/test reads the rest
DESCRIPTION="the same portal, the user's resolver refused at once (ICMP port unreachable, as openNDS does): portal through the link's resolver within 2 s"
setup() {
    client_ipv4
    dns_vendors
    web_vendors
    portal redirect
    own_resolver 203.0.113.53 refuse
    link_dns_announce networkd 198.51.100.1
}
TIMEOUT=8
EXPECT_EXIT=2
EXPECT_VERDICT=portal
EXPECT_REASON=http-redirect
CHECKS=(
    'r["portal"]["url"] == "http://login.portal.test/login?venue=lab"'
    'r["dns"]["used"] == "link" and r["dns"]["link_source"] == "systemd-networkd"'
    'counters["own_dns"] > 0'
    'elapsed < 2'
)
