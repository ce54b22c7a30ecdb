# shellcheck shell=bash disable=SC2034 # a scenario: lab up runs setup(), lab/test reads the rest
DESCRIPTION="open network, dual stack (IPv4 and IPv6 addresses and default routes)"
setup() {
    client_ipv4
    client_ipv6
    dns_vendors
    web_vendors
}
EXPECT_EXIT=0
EXPECT_VERDICT=online
EXPECT_REASON=probes-validated
CHECKS=(
    'r["portal"] is None'
    'sorted(d["family"] for d in r["default_routes"]) == ["ipv4", "ipv6"]'
    'all(p["outcome"] in ("success", "skipped") for p in probes)'
    # A plain network: no Captive Portal API announced, no proxy, no lying resolver.
    'r["capport"] is None and r["proxy"] is False and r["dns_hijack"] is False'
    'all(p["dns_hijack"] in (False, None) for p in probes)'
)
