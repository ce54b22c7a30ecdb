# shellcheck shell=bash disable=SC2034 # a scenario: lab up runs setup(), lab/test reads the rest
DESCRIPTION="the refusing portal; NetworkManager's lease of this network (the gateway as DNS=) beside a hotspot's stale lease whose name sorts first and which was written last (another address, another resolver): portal through the current lease's resolver, the stale one never asked"
setup() {
    client_ipv4
    dns_vendors
    web_vendors
    portal redirect
    own_resolver 203.0.113.53 refuse
    count_to stale_dns 203.0.113.54
    link_dns_announce networkmanager "$GW_V4"
    lease_file NetworkManager/internal-0a0b0c0d-1111-2222-3333-444455556666-eth0.lease \
        "$(printf '# This is private data. Do not parse.\nADDRESS=203.0.113.77\nDNS=203.0.113.54\nLIFETIME=4294967295\n')"
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
