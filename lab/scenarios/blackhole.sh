# shellcheck shell=bash disable=SC2034 # a scenario: lab up runs setup(), lab/test reads the rest
DESCRIPTION="everything black-holed (DNS too): offline within --timeout"
setup() {
    client_ipv4
    dns_vendors
    web_vendors
    block all drop
}
TIMEOUT=4
EXPECT_EXIT=1
EXPECT_VERDICT=offline
# DNS itself is dropped, so the deadline passes before any name resolves.
EXPECT_REASON="timeout|dns-failed"
CHECKS=(
    # The router answers ARP; the names never resolve (DNS dropped first): the resolvers are the hop.
    'r["fault"] == "dns" and "does not answer" in text.splitlines()[0]'
    'elapsed <= timeout + 1.0'
    'r["duration_ms"] <= timeout * 1000 + 500'
    'all(p["outcome"] in ("failure", "skipped") for p in probes)'
    'counters["client_dns"] > 0'
    # A plain network: no Captive Portal API announced, no proxy, no lying resolver.
    'r["capport"] is None and r["proxy"] is False and r["dns_hijack"] is False'
    'all(p["dns_hijack"] in (False, None) for p in probes)'
)
scenario_test() {
    np_run_text check --timeout "$TIMEOUT"
    default_test
}
