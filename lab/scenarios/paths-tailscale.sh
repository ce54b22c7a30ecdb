# shellcheck shell=bash disable=SC2034 # a scenario: lab up runs setup(), lab/test reads the rest
DESCRIPTION="Tailscale with the exit node off: rule 5270 to table 52, which holds only 100.64.0.0/10 via tun0; the default route stays in main: online through eth0, tun0 no path"
setup() {
    client_ipv4
    dns_vendors
    web_vendors
    client_tun 4 --table 52 --route 100.64.0.0/10
    policy_rule 4 pref 5270 table 52
}
scenario_test() {
    TIMEOUT=4 EXPECT_EXIT=0 EXPECT_VERDICT=online EXPECT_REASON=probes-validated
    CHECKS=(
        'r["kernel_routes"][0]["interface"] == "eth0" and r["kernel_routes"][0]["table"] == 254'
        'counters["client_tun0_tx"] == 0'
        'len(r["paths"]) == 1 and path("eth0", None)["default"] is True'
    )
    np_step plain check --json --timeout "$TIMEOUT"

    TIMEOUT=4 EXPECT_EXIT=0 EXPECT_VERDICT=online EXPECT_REASON=probes-validated
    CHECKS=(
        '[(p["interface"], p["family"], p["default"]) for p in r["paths"]] == [("eth0", "ipv4", True)]'
    )
    np_step all-paths check --json --all-paths --timeout "$TIMEOUT"
    np_steps_result
}
