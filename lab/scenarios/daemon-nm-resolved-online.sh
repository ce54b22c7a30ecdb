# shellcheck shell=bash disable=SC2034 # a scenario: lab up runs setup(), lab/test reads the rest
DESCRIPTION="the default desktop on an open network: the real NetworkManager (internal DHCP client) leases eth0 and hands the gateway's resolver over the bus to the real systemd-resolved (plain DNS): online, the stub's upstreams and the link's resolvers both from their owners over D-Bus, the link's resolver never asked by netprobe"
setup() {
    dhcp_server
    resolved
    nm_client --dns systemd-resolved
    dns_vendors
    web_vendors
}
TIMEOUT=8
EXPECT_EXIT=0
EXPECT_VERDICT=online
EXPECT_REASON=probes-validated
CHECKS=(
    'r["dns"]["upstreams"] == ["198.51.100.1"] and r["dns"]["upstreams_transport"] == "plain"'
    'r["dns"]["used"] == "configured" and r["dns"]["link_asked"] is False'
    'elapsed < 2'
)
