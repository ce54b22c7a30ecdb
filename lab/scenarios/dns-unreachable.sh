# shellcheck shell=bash disable=SC2034 # a scenario: lab up runs setup(), lab/test reads the rest
DESCRIPTION="DNS server unreachable: nothing answers on port 53 (ICMP port unreachable)"
setup() {
    client_ipv4
    web_vendors
}
EXPECT_EXIT=1
EXPECT_VERDICT=offline
EXPECT_REASON=dns-failed
CHECKS=(
    'r["fault"] == "dns" and "198.51.100.1" in r["fault_detail"] and "neighbour reachable" in r["fault_detail"]'
    'r["portal"] is None'
    'all(p["outcome"] in ("failure", "skipped") for p in probes)'
    'all(p["error_class"] == "dns" for p in probes if p["outcome"] == "failure")'
    'any(p["outcome"] == "failure" for p in probes)'
    'counters["client_dns"] > 0 and counters["client_syns"] == 0'
    # A plain network: no Captive Portal API announced, no proxy, no lying resolver.
    'r["capport"] is None and r["proxy"] is False and r["dns_hijack"] is False'
    'all(p["dns_hijack"] in (False, None) for p in probes)'
)
