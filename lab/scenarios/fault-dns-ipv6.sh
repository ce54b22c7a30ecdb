# shellcheck shell=bash disable=SC2034 # a scenario: lab up runs setup(), lab/test reads the rest
DESCRIPTION="IPv6 only, the router answers, its DNS server does not (port unreachable): fault dns"
setup() {
    client_ipv6
    web_vendors
}
EXPECT_EXIT=1
EXPECT_VERDICT=offline
EXPECT_REASON=dns-failed
CHECKS=(
    'r["fault"] == "dns" and r["paths"][0]["fault"] == "dns"'
    '"2001:db8:1::1" in r["fault_detail"] and "neighbour reachable" in r["fault_detail"]'
    'counters["client_dns"] > 0 and counters["client_syns"] == 0'
    'text_status == 1'
    'text.splitlines()[0] == "offline: the DNS server 2001:db8:1::1 resolves no names (the router 2001:db8:1::1 answers) (dns-failed)"'
)
scenario_test() {
    np_run_text check --timeout "$TIMEOUT"
    default_test
}
