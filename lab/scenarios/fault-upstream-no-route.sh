# shellcheck shell=bash disable=SC2034 # a scenario: lab up runs setup(), lab/test reads the rest
DESCRIPTION="the router answers ARP and DNS but has no route beyond it, and says so (ICMP network unreachable): fault upstream, naming the router that sent the error"
setup() {
    client_ipv4
    dns_vendors
    web_vendors
    no_route_onward 4
}
TIMEOUT=4
EXPECT_EXIT=1
EXPECT_VERDICT=offline
EXPECT_REASON=connect-failed
CHECKS=(
    'r["fault"] == "upstream" and r["paths"][0]["fault"] == "upstream"'
    '"198.51.100.1 sent network unreachable" in r["fault_detail"]'
    'elapsed < 1'
    'text_status == 1'
    'text.splitlines()[0] == "offline: the router 198.51.100.1 answers, but reports: network unreachable (connect-failed)"'
)
scenario_test() {
    np_run_text check --timeout "$TIMEOUT"
    default_test
}
