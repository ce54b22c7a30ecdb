# shellcheck shell=bash disable=SC2034 # a scenario: lab up runs setup(), lab/test reads the rest
DESCRIPTION="systemd-resolved's stub forwarding to the user's own resolver (203.0.113.53), behind the 302 portal that drops it; networkd recorded the gateway as the link's resolver: portal with its login URL through the link's resolver, the stub's upstream named"
setup() {
    client_ipv4
    dns_vendors
    web_vendors
    portal redirect
    own_resolver 203.0.113.53 drop
    link_dns_announce networkd "$GW_V4"
    stub_resolver 203.0.113.53
}
TIMEOUT=8
EXPECT_EXIT=2
EXPECT_VERDICT=portal
EXPECT_REASON=http-redirect
CHECKS=(
    'r["portal"]["url"] == "http://login.portal.test/login?venue=lab"'
    'r["dns"]["configured"] == ["127.0.0.53"] and r["dns"]["upstreams"] == ["203.0.113.53"]'
    'r["dns"]["used"] == "link" and r["dns"]["link_server"] == "198.51.100.1"'
    'counters["own_dns"] > 0'
    'elapsed < 3'
)
