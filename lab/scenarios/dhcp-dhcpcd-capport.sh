# shellcheck shell=bash disable=SC2034 # a scenario: lab up runs setup(), lab/test reads the rest
DESCRIPTION="real dhcpcd leases eth0 from a real DHCP server announcing its Captive Portal API (option 114) and resolver: API says captive"
setup() {
    dhcp_server --capport https://capport.portal.test/captive
    dhcp_client dhcpcd
    echo "nameserver $GW_V4" >"/etc/netns/$CLIENT_NS/resolv.conf"
    dns_vendors
    web_vendors
    portal login-page
}
EXPECT_EXIT=2
EXPECT_VERDICT=portal
EXPECT_REASON=capport-captive
CHECKS=(
    'r["capport"]["uri"] == "https://capport.portal.test/captive" and r["capport"]["source"] == "dhcpcd"'
    'r["capport"]["interface"] == "eth0" and r["capport"]["state"] == "answered" and r["capport"]["captive"] is True'
    'r["portal"]["source"] == "capport" and r["portal"]["url"] == "https://login.portal.test/portal?venue=lab"'
    'counters["dhcp_inform"] == 0'
)
