# shellcheck shell=bash disable=SC2034 # a scenario: lab up runs setup(), lab/test reads the rest
DESCRIPTION="the refusing portal; NetworkManager's device state of this network (the gateway as dhcp4.domain_name_servers) beside a hotspot's internal lease whose name sorts first and which was written last (another address; NetworkManager's internal lease holds no resolver): portal through the device state's resolver, nothing else asked"
setup() {
    client_ipv4
    dns_vendors
    web_vendors
    portal redirect
    own_resolver 203.0.113.53 refuse
    count_to stale_dns 203.0.113.54
    link_dns_announce networkmanager "$GW_V4"
    lease_file NetworkManager/internal-0a0b0c0d-1111-2222-3333-444455556666-eth0.lease \
        "$(printf '# This is private data. Do not parse.\nADDRESS=203.0.113.77\n')"
}
TIMEOUT=8
EXPECT_EXIT=2
EXPECT_VERDICT=portal
EXPECT_REASON=http-redirect
CHECKS=(
    'r["portal"]["url"] == "http://login.portal.test/login?venue=lab"'
    'r["dns"]["used"] == "link" and r["dns"]["link"] == ["198.51.100.1"] and r["dns"]["link_source"] == "networkmanager"'
    'counters["stale_dns"] == 0'
    'elapsed < 2'
)
