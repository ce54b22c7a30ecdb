# shellcheck shell=bash disable=SC2034 # a scenario: lab up runs setup(), lab/test reads the rest
DESCRIPTION="the default desktop: the real NetworkManager (internal DHCP client) leases eth0 from a real DHCP server and hands the gateway's resolver over the bus to the real systemd-resolved, set to DNSOverTLS=yes; a 302 portal that drops DNS over TLS: the gateway, asked in plain DNS, shows the portal"
setup() {
    dhcp_server
    resolved --dot yes
    nm_client --dns systemd-resolved
    dns_vendors
    web_vendors
    portal redirect
    block "tcp dport 853" drop
}
TIMEOUT=8
EXPECT_EXIT=2
EXPECT_VERDICT=portal
EXPECT_REASON=http-redirect
CHECKS=(
    'r["portal"]["url"] == "http://login.portal.test/login?venue=lab"'
    'r["dns"]["upstreams"] == ["198.51.100.1"] and r["dns"]["upstreams_transport"] == "tls"'
    'r["dns"]["used"] == "link" and r["dns"]["link"] == ["198.51.100.1"] and r["dns"]["link_source"] == "networkmanager"'
    'elapsed < 2.1'
)
