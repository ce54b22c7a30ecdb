# shellcheck shell=bash disable=SC2034 # a scenario: lab up runs setup(), lab/test reads the rest
DESCRIPTION="the real systemd-resolved, just started (cold cache), as the stub in front of the gateway's resolver, which the real systemd-networkd leased from a real DHCP server: resolved says over D-Bus it asks the gateway in plain DNS, so its answers are waited for and the gateway is never asked by netprobe: online within 2 s"
setup() {
    dhcp_server
    resolved
    networkd_client
    dns_vendors
    web_vendors
}
TIMEOUT=8
EXPECT_EXIT=0
EXPECT_VERDICT=online
EXPECT_REASON=probes-validated
CHECKS=(
    'r["dns"]["local_stub"] is True and r["dns"]["upstreams"] == ["198.51.100.1"]'
    'r["dns"]["upstreams_source"] == "systemd-resolved" and r["dns"]["upstreams_transport"] == "plain"'
    'r["dns"]["used"] == "configured" and r["dns"]["link_asked"] is False'
    'elapsed < 2'
)
