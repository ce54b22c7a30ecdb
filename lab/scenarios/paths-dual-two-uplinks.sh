# shellcheck shell=bash disable=SC2034 # a scenario: lab up runs setup(), lab/test reads the rest
DESCRIPTION="two uplinks, both dual stack and open: four paths, all online (also make bench's --all-paths network)"
setup() {
    client_ipv4 --metric 100
    client_ipv6 --metric 100
    client_uplink2 46 --metric 200
    dns_vendors
    web_vendors
}
scenario_test() {
    TIMEOUT=10 EXPECT_EXIT=0 EXPECT_VERDICT=online EXPECT_REASON=probes-validated
    CHECKS=(
        'len(r["paths"]) == 1 and r["paths"][0]["family"] is None and r["paths"][0]["interface"] == "eth0"'
    )
    np_step plain check --json --timeout "$TIMEOUT"

    TIMEOUT=10 EXPECT_EXIT=0 EXPECT_VERDICT=online EXPECT_REASON=probes-validated
    CHECKS=(
        'sorted((p["interface"], p["family"]) for p in r["paths"]) == [("eth0", "ipv4"), ("eth0", "ipv6"), ("eth1", "ipv4"), ("eth1", "ipv6")]'
        'all(p["verdict"] == "online" and p["reason"] == "probes-validated" for p in r["paths"])'
        'sorted((p["interface"], p["family"]) for p in r["paths"] if p["default"]) == [("eth0", "ipv4"), ("eth0", "ipv6")]'
        'counters["client_syns"] > 0 and counters["uplink2_syns"] > 0'
    )
    lab_do counters_reset
    np_step all-paths check --json --all-paths --timeout "$TIMEOUT"
    np_steps_result
}
