# shellcheck shell=bash disable=SC2034 # a scenario: lab up runs setup(), lab/test reads the rest
DESCRIPTION="IPv6 only, the router answers neighbour solicitations and DNS but has no route beyond it, and says so (ICMPv6 no route): fault upstream, naming the router that sent the error"
setup() {
    client_ipv6
    dns_vendors
    web_vendors
    no_route_onward 6
}
TIMEOUT=4
EXPECT_EXIT=1
EXPECT_VERDICT=offline
EXPECT_REASON=connect-failed
CHECKS=(
    'r["fault"] == "upstream" and r["paths"][0]["fault"] == "upstream"'
    '"2001:db8:1::1 sent network unreachable" in r["fault_detail"]'
    'elapsed < 1'
    'text_status == 1'
    'text.splitlines()[0] == "offline: the router 2001:db8:1::1 answers, but reports: network unreachable (connect-failed)"'
)
scenario_test() {
    np_run_text check --timeout "$TIMEOUT"
    default_test
}
