# shellcheck shell=bash disable=SC2034 # a scenario: lab up runs setup(), lab/test reads the rest
DESCRIPTION="wg-quick full tunnel that works (a veth into the gateway as the tunnel, eth1, in table 51820): online through eth1, eth1 the machine's path in both checks"
setup() {
    client_ipv4 --metric 100          # eth0: main's default route
    client_uplink2 4 --table 51820    # eth1 plays the tunnel: wg-quick's table
    dns_vendors
    web_vendors
    policy_rule 4 not fwmark 51820 table 51820
    policy_rule 4 table main suppress_prefixlength 0
}
scenario_test() {
    # 1. Plain check: probes leave through the tunnel, never through eth0.
    TIMEOUT=10 EXPECT_EXIT=0 EXPECT_VERDICT=online EXPECT_REASON=probes-validated
    CHECKS=(
        'r["kernel_routes"][0]["interface"] == "eth1" and r["kernel_routes"][0]["table"] == 51820'
        'counters["uplink2_syns"] > 0 and counters["client_syns"] == 0'
        'len(r["paths"]) == 1 and path("eth1", None)["default"] is True'
    )
    lab_do counters_reset
    np_step plain check --json --timeout "$TIMEOUT"

    # 2. Every path: eth1 is the machine's (before: eth0 was marked default), eth0 works too.
    TIMEOUT=10 EXPECT_EXIT=0 EXPECT_VERDICT=online EXPECT_REASON=probes-validated
    CHECKS=(
        '[(p["interface"], p["family"]) for p in r["paths"]] == [("eth1", "ipv4"), ("eth0", "ipv4")]'
        'path("eth1", "ipv4")["default"] is True and path("eth0", "ipv4")["default"] is False'
        'path("eth0", "ipv4")["verdict"] == "online" and path("eth1", "ipv4")["verdict"] == "online"'
        'counters["uplink2_syns"] > 0 and counters["client_syns"] > 0'
    )
    lab_do counters_reset
    np_step all-paths check --json --all-paths --timeout "$TIMEOUT"
    np_steps_result
}
