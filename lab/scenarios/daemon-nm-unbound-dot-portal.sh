# shellcheck shell=bash disable=SC2034 # a scenario: lab up runs setup(), lab/test reads the rest
DESCRIPTION="the real NetworkManager (internal DHCP client, DNS left alone) leases eth0 and writes its no-stub-resolv.conf naming the gateway, while the machine's resolver is the real unbound on 127.0.0.1, forwarding to the gateway by DNS over TLS only; a 302 portal that drops port 853: NetworkManager runs no stub, so unbound's upstreams are unknown, and the gateway, asked in plain DNS, shows the portal"
setup() {
    dhcp_server
    nm_client
    unbound_stub "$GW_V4"
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
    'r["dns"]["local_stub"] is True and r["dns"]["upstreams"] == [] and r["dns"]["upstreams_source"] is None'
    'r["dns"]["used"] == "link" and r["dns"]["link"] == ["198.51.100.1"] and r["dns"]["link_source"] == "networkmanager"'
    'elapsed < 2.1'
)
