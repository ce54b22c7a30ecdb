# shellcheck shell=bash disable=SC2034 # a scenario: lab up runs setup(), lab/test reads the rest
DESCRIPTION="link up, address, and only an unreachable, then a blackhole, then a prohibit default route: offline at once, no packet sent, in both checks"
setup() {
    client_ipv4 --no-default-route
    route_refuse unreachable 4
    dns_vendors
    web_vendors
}
scenario_test() {
    local kind
    for kind in unreachable blackhole prohibit; do
        [[ $kind == unreachable ]] || lab_do route_refuse "$kind" 4
        TIMEOUT=5 EXPECT_EXIT=1 EXPECT_VERDICT=offline EXPECT_REASON=no-default-route
        CHECKS=(
            "r['fault'] == 'route' and r['fault_detail'] == \"the kernel's route to the Internet is $kind\""
            "r['kernel_routes'][0]['refusal'] == '$kind' and r['kernel_routes'][0]['interface'] is None"
            'all(p["outcome"] == "skipped" for p in probes)'
            'counters["client_packets"] == 0'
            'elapsed < 2'
        )
        np_step "$kind" check --json --timeout "$TIMEOUT"
        CHECKS=(
            'len(r["paths"]) == 1 and r["paths"][0]["default"] is True'
            'counters["client_packets"] == 0'
            'elapsed < 2'
        )
        np_step "$kind-all-paths" check --json --all-paths --timeout "$TIMEOUT"
    done
    np_steps_result
}
