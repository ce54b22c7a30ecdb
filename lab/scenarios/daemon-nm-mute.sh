# shellcheck shell=bash disable=SC2034 # a scenario: lab up runs setup(), lab/test reads the rest
DESCRIPTION="the real NetworkManager (internal DHCP client, private bus) leases eth0 from a real DHCP server, then stops answering (stopped: it still owns its name on the bus); an open network: NetworkManager is asked once, given up after a quarter of a second and not asked again that check, its files read instead: online"
setup() {
    dhcp_server
    nm_client
    echo "nameserver $GW_V4" >"/etc/netns/$CLIENT_NS/resolv.conf"
    dns_vendors
    web_vendors
    daemon_freeze nm
}
TIMEOUT=8
EXPECT_EXIT=0
EXPECT_VERDICT=online
EXPECT_REASON=probes-validated
CHECKS=(
    'r["portal"] is None and r["dns"]["used"] == "configured"'
    # One quarter of a second for NetworkManager, not one per question.
    'elapsed < 2'
)
