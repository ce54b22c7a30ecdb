# shellcheck shell=bash disable=SC2034 # a scenario: lab up runs setup(), lab/test reads the rest
DESCRIPTION="a rule sends everything to table 200 (default via eth0, metric 300, open) while main's lowest-metric default is a dead tunnel (tun0, metric 50): online through eth0 in both checks"
setup() {
    client_ipv4 --no-default-route
    default_route add 4 --metric 300 --table 200
    dns_vendors
    web_vendors
    client_tun 4 --metric 50        # main's best default by metric: a dead tunnel
    policy_rule 4 pref 100 table 200
}
scenario_test() {
    # 1. Plain check: online through eth0; nothing into the tunnel.
    TIMEOUT=4 EXPECT_EXIT=0 EXPECT_VERDICT=online EXPECT_REASON=probes-validated
    CHECKS=(
        'r["kernel_routes"][0]["interface"] == "eth0" and r["kernel_routes"][0]["table"] == 200'
        'counters["client_syns"] > 0 and counters["client_tun0_tx"] == 0'
        'len(r["paths"]) == 1 and path("eth0", None)["default"] is True'
    )
    lab_do counters_reset
    np_step plain check --json --timeout "$TIMEOUT"

    # 2. Every path: eth0 (the kernel's) online and the answer; the tunnel, probed bound to
    #    it, offline. (Before: offline, with the tunnel marked default.)
    TIMEOUT=4 EXPECT_EXIT=0 EXPECT_VERDICT=online EXPECT_REASON=probes-validated
    CHECKS=(
        'elapsed <= timeout + 1.0'
        '[(p["interface"], p["family"]) for p in r["paths"]] == [("eth0", "ipv4"), ("tun0", "ipv4")]'
        'path("eth0", "ipv4")["default"] is True and path("tun0", "ipv4")["default"] is False'
        'path("tun0", "ipv4")["verdict"] == "offline"'
    )
    lab_do counters_reset
    np_step all-paths check --json --all-paths --timeout "$TIMEOUT"
    np_steps_result
}
