# shellcheck shell=bash disable=SC2034 # a scenario: lab up runs setup(), lab/test reads the rest
DESCRIPTION="IPv6 only, the router never answers neighbour solicitations: fault gateway, named"
setup() {
    client_ipv6
    dns_vendors
    web_vendors
    gateway_silent 6
}
TIMEOUT=4
EXPECT_EXIT=1
EXPECT_VERDICT=offline
EXPECT_REASON="timeout|dns-failed|connect-failed"
CHECKS=(
    'r["fault"] == "gateway" and r["paths"][0]["fault"] == "gateway"'
    '"2001:db8:1::1" in r["fault_detail"] and ("neighbour incomplete" in r["fault_detail"] or "neighbour failed" in r["fault_detail"])'
    'elapsed <= timeout + 1.0'
    'counters["client_packets"] == 0'
    'text_status == 1'
    'text.splitlines()[0].startswith("offline: the router 2001:db8:1::1 does not answer (")'
)
scenario_test() {
    np_run_text check --timeout "$TIMEOUT"
    default_test
}
