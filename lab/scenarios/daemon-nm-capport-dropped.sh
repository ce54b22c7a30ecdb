# shellcheck shell=bash disable=SC2034 # a scenario: lab up runs setup(), lab/test reads the rest
DESCRIPTION="the real NetworkManager 1.42 (internal DHCP client) leases eth0 from a real DHCP server announcing its Captive Portal API (option 114, saying captive), and drops option 114; a login-page portal: one DHCPINFORM finds the API, portal.url is its user-portal-url"
setup() {
    dhcp_server --capport https://capport.portal.test/captive
    nm_client
    echo "nameserver $GW_V4" >"/etc/netns/$CLIENT_NS/resolv.conf"
    dns_vendors
    web_vendors
    portal login-page
}
TIMEOUT=8
EXPECT_EXIT=2
EXPECT_VERDICT=portal
EXPECT_REASON=capport-captive
CHECKS=(
    'r["capport"]["uri"] == "https://capport.portal.test/captive" and r["capport"]["source"] == "dhcpinform"'
    'r["portal"]["source"] == "capport" and r["portal"]["url"] == "https://login.portal.test/portal?venue=lab"'
    'counters["dhcp_inform"] == 1'
    'elapsed < 2'
)
