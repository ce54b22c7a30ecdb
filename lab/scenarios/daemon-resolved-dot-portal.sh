# shellcheck shell=bash disable=SC2034 # a scenario: lab up runs setup(), lab/test reads the rest
DESCRIPTION="the real systemd-resolved (DNSOverTLS=yes) as the stub, fed over the bus by the real systemd-networkd, which leased eth0 from a real DHCP server (option 6: the gateway); a 302 portal that drops DNS over TLS: resolved says over D-Bus it reaches the gateway by TLS only, so the gateway is asked in plain DNS: portal"
setup() {
    dhcp_server
    resolved --dot yes
    networkd_client
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
    'r["dns"]["local_stub"] is True and r["dns"]["upstreams"] == ["198.51.100.1"]'
    'r["dns"]["upstreams_source"] == "systemd-resolved" and r["dns"]["upstreams_transport"] == "tls"'
    'r["dns"]["used"] == "link" and r["dns"]["link"] == ["198.51.100.1"] and r["dns"]["link_source"] == "systemd-networkd"'
    'elapsed < 2'
)
