# shellcheck shell=bash disable=SC2034 # a scenario: lab up runs setup(), lab/test reads the rest
DESCRIPTION="a static (permanent) address behind a login-page portal, a DHCP server on the link that would name the Captive Portal API: no DHCPINFORM is sent from an address no DHCP client configured"
setup() {
    client_ipv4
    dhcp_server --capport 'https://capport.portal.test/captive'
    dns_vendors
    web_vendors
    portal login-page
}
EXPECT_EXIT=2
EXPECT_VERDICT=portal
EXPECT_REASON=wrong-content
CHECKS=(
    # The kernel holds the address forever: static, so the network is not asked.
    'counters["dhcp_inform"] == 0'
    'r["dhcp_inform"]["state"] == "static-address" and r["dhcp_inform"]["client_address"] == "198.51.100.2"'
    'r["dhcp_inform"]["interface"] == "eth0" and r["dhcp_inform"]["duration_ms"] is None'
    'any(a["address"] == "198.51.100.2" and a["dynamic"] is False for i in r["interfaces"] for a in i["addresses"])'
    'r["capport"] is None and probe_page(r)'
    'r["duration_ms"] < 400'
)
