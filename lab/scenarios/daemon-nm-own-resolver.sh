# shellcheck shell=bash disable=SC2034 # a scenario: lab up runs setup(), lab/test reads the rest
DESCRIPTION="the real NetworkManager (internal DHCP client, private bus) leases eth0 from a real DHCP server (option 6: the gateway; option 114, which NetworkManager 1.42 drops); the user's own resolver is dropped behind a 302 portal: portal through the resolver NetworkManager says over D-Bus the network announced"
setup() {
    dhcp_server --capport https://capport.portal.test/captive
    own_resolver 203.0.113.53 drop
    nm_client
    dns_vendors
    web_vendors
    portal redirect
}
TIMEOUT=8
EXPECT_EXIT=2
EXPECT_VERDICT=portal
EXPECT_REASON=http-redirect
CHECKS=(
    # NetworkManager 1.42 dropped option 114; the DHCPINFORM asks the network again, and its
    # answer comes beside NetworkManager's own DHCP socket (the packet socket).
    'r["portal"]["url"] == "https://login.portal.test/portal?venue=lab" and r["portal"]["source"] == "capport"'
    'r["capport"]["source"] == "dhcpinform" and r["dhcp_inform"]["state"] == "answered"'
    'r["dns"]["used"] == "link" and r["dns"]["link_source"] == "networkmanager" and r["dns"]["link"] == ["198.51.100.1"]'
    'r["dns"]["configured"] == ["203.0.113.53"]'
    # The hedge's probes get no resolve patience of their own (it counts from the round's start):
    # with it they held the answer back by the hedge's delay, about 1.45 s.
    'elapsed < 2 and r["duration_ms"] < 1350'
)
