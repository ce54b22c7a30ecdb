# shellcheck shell=bash disable=SC2034 # a scenario: lab up runs setup(), lab/test reads the rest
DESCRIPTION="link up, address, and only a blackhole default route: offline at once, no packet sent, in both checks"
setup() {
    client_ipv4 --no-default-route
    route_refuse blackhole 4
    dns_vendors
    web_vendors
}
scenario_test() {
    TIMEOUT=5 EXPECT_EXIT=1 EXPECT_VERDICT=offline EXPECT_REASON=no-default-route
    CHECKS=(
        'r["kernel_routes"][0]["refusal"] == "blackhole" and r["kernel_routes"][0]["interface"] is None'
        'all(p["outcome"] == "skipped" for p in probes)'
        'counters["client_packets"] == 0'
        'elapsed < 2'
    )
    np_step plain check --json --timeout "$TIMEOUT"

    TIMEOUT=5 EXPECT_EXIT=1 EXPECT_VERDICT=offline EXPECT_REASON=no-default-route
    CHECKS=(
        'len(r["paths"]) == 1 and r["paths"][0]["default"] is True'
        'counters["client_packets"] == 0'
        'elapsed < 2'
    )
    np_step all-paths check --json --all-paths --timeout "$TIMEOUT"
    np_steps_result
}
