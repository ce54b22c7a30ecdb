# shellcheck shell=bash disable=SC2034 # a scenario: lab up runs setup(), lab/test reads the rest
DESCRIPTION="IPv6 only, the router answers neighbour solicitations and DNS, nothing beyond it answers: fault upstream"
setup() {
    client_ipv6
    dns_vendors
    web_vendors
    block "tcp dport { 80, 443 }" drop
}
TIMEOUT=4
EXPECT_EXIT=1
EXPECT_VERDICT=offline
EXPECT_REASON=timeout
CHECKS=(
    'r["fault"] == "upstream" and r["paths"][0]["fault"] == "upstream"'
    '"2001:db8:1::1" in r["fault_detail"] and "neighbour reachable" in r["fault_detail"]'
    'elapsed <= timeout + 1.0'
    'counters["client_dns"] > 0 and counters["client_syns"] > 0'
    'text_status == 1'
    'text.splitlines()[0] == "offline: the router 2001:db8:1::1 answers, but nothing beyond it does (timeout)"'
)
scenario_test() {
    np_run_text check --timeout "$TIMEOUT"
    default_test
}
