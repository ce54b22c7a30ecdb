# shellcheck shell=bash disable=SC2034 # a scenario: lab up runs setup(), lab/test reads the rest
DESCRIPTION="a leased address (no lease file) behind a login-page portal; a hostile DHCP server answers the DHCPINFORM with another transaction's ACK, an echo, an OFFER and a cut message before the real ACK, a second ACK with an escape sequence after it"
setup() {
    client_ipv4
    client_leased
    dhcp_hostile
    dns_vendors
    web_vendors
    portal login-page
}
EXPECT_EXIT=2
EXPECT_VERDICT=portal
EXPECT_REASON=capport-captive
CHECKS=(
    # Only the real answer to our transaction counts.
    'r["capport"]["uri"] == "https://capport.portal.test/captive" and r["capport"]["source"] == "dhcpinform"'
    'r["dhcp_inform"]["state"] == "answered" and r["dhcp_inform"]["captive_portal"] == "https://capport.portal.test/captive"'
    'r["portal"]["url"] == "https://login.portal.test/portal?venue=lab"'
    '"evil" not in str(r)'
)
