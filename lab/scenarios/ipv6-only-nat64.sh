# shellcheck shell=bash disable=SC2034 # a scenario: lab up runs setup(), lab/test reads the rest
DESCRIPTION="IPv6-only network with a real DNS64 (unbound, 64:ff9b::/96): online, and the NAT64 prefix found (RFC 7050) in the check and in netprobe path"
setup() {
    client_ipv6
    dns_vendors --host-record=ipv4only.arpa,192.0.0.170 --host-record=ipv4only.arpa,192.0.0.171
    web_vendors
    dns64 2001:db8:64::53
}
TIMEOUT=5
EXPECT_EXIT=0
EXPECT_VERDICT=online
EXPECT_REASON=probes-validated
CHECKS=(
    'r["nat64"] == {"prefix": "64:ff9b::/96", "resolver": "2001:db8:64::53"}'
    'r["dns"]["configured"] == ["2001:db8:64::53"]'
)
