# shellcheck shell=bash disable=SC2034 # a scenario: lab up runs setup(), lab/test reads the rest
DESCRIPTION="IPv6-only network (names still have A records, which lead nowhere)"
setup() {
    client_ipv6
    dns_vendors
    web_vendors
}
EXPECT_EXIT=0
EXPECT_VERDICT=online
EXPECT_REASON=probes-validated
CHECKS=(
    '[d["family"] for d in r["default_routes"]] == ["ipv6"]'
    'any(p["outcome"] == "success" and p["remote_address"].startswith("2001:db8:2::") for p in probes)'
    'all(p["outcome"] in ("success", "skipped") for p in probes)'
    # A plain network: no Captive Portal API announced, no proxy, no lying resolver.
    'r["capport"] is None and r["proxy"] is False and r["dns_hijack"] is False'
    'all(p["dns_hijack"] in (False, None) for p in probes)'
)
