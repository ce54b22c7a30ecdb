# shellcheck shell=bash disable=SC2034 # a scenario: lab up runs setup(), lab/test reads the rest
DESCRIPTION="link, address and route fine, the router never answers ARP: fault gateway, named"
setup() {
    client_ipv4
    dns_vendors
    web_vendors
    gateway_silent 4
}
TIMEOUT=4
EXPECT_EXIT=1
EXPECT_VERDICT=offline
# Nothing gets past the first hop: names time out or fail, connections find no neighbour.
EXPECT_REASON="timeout|dns-failed|connect-failed"
CHECKS=(
    'r["fault"] == "gateway" and r["paths"][0]["fault"] == "gateway"'
    '"198.51.100.1" in r["fault_detail"] and ("neighbour incomplete" in r["fault_detail"] or "neighbour failed" in r["fault_detail"])'
    'elapsed <= timeout + 1.0'
    # Nothing reached the gateway's IP layer: it never learned where to send it.
    'counters["client_packets"] == 0'
    'text_status == 1'
    'text.splitlines()[0].startswith("offline: the router 198.51.100.1 does not answer (")'
)
scenario_test() {
    np_run_text check --timeout "$TIMEOUT"
    default_test
}
