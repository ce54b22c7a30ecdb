# shellcheck shell=bash disable=SC2034 # a scenario: lab up runs setup(), lab/test reads the rest
DESCRIPTION="a redirect portal whose only working resolver is the gateway; resolv.conf names 203.0.113.53, whose DNS the portal drops; networkd recorded the gateway as the link's resolver: portal with its login URL, found through the link's resolver within 3 s"
setup() {
    client_ipv4
    dns_vendors
    web_vendors
    portal redirect
    own_resolver 203.0.113.53 drop
    link_dns_announce networkd 198.51.100.1
}
TIMEOUT=8
EXPECT_EXIT=2
EXPECT_VERDICT=portal
EXPECT_REASON=http-redirect
CHECKS=(
    'r["portal"]["url"] == "http://login.portal.test/login?venue=lab"'
    'r["dns"]["used"] == "link" and r["dns"]["link"] == ["198.51.100.1"] and r["dns"]["link_source"] == "systemd-networkd"'
    'r["dns"]["configured"] == ["203.0.113.53"] and r["dns"]["link_asked"] is True and r["dns"]["link_server"] == "198.51.100.1"'
    'any(p["resolver"] == "link" and p["outcome"] == "portal" for p in probes)'
    'counters["own_dns"] > 0'
    'elapsed < 3'
)
