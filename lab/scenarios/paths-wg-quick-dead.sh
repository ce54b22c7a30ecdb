# shellcheck shell=bash disable=SC2034 # a scenario: lab up runs setup(), lab/test reads the rest
DESCRIPTION="wg-quick full tunnel, far end gone: every unmarked packet goes to table 51820 (tun0); eth0's open default route stays in main: offline, tun0 the machine's path in both checks"
setup() {
    client_ipv4 --metric 100     # the uplink works (the nameserver is on-link there)
    dns_vendors
    web_vendors
    client_tun 4 --metric 200 --table 51820   # wg-quick's table (a metric above eth0's: it counts for nothing there)
    policy_rule 4 not fwmark 51820 table 51820
    policy_rule 4 table main suppress_prefixlength 0
}
scenario_test() {
    # 1. Plain check: the kernel sends the probes into the tunnel (main's metrics would say
    #    eth0): names resolve (on-link), connections vanish: offline when the deadline passes.
    TIMEOUT=3 EXPECT_EXIT=1 EXPECT_VERDICT=offline EXPECT_REASON=timeout
    CHECKS=(
        'elapsed <= timeout + 1.0'
        'r["kernel_routes"][0]["interface"] == "tun0" and r["kernel_routes"][0]["table"] == 51820'
        'sorted((d["interface"], d["table"]) for d in r["default_routes"]) == [("eth0", 254), ("tun0", 51820)]'
        'counters["client_syns"] == 0 and counters["client_tun0_tx"] > 0'
        'len(r["paths"]) == 1 and path("tun0", None)["default"] is True'
    )
    lab_do counters_reset
    np_step plain check --json --timeout "$TIMEOUT"

    # 2. Every path: the same answer, from the same path; eth0 works, but it is not where
    #    the machine's traffic goes. (Before the kernel was asked: online, eth0 default.)
    TIMEOUT=3 EXPECT_EXIT=1 EXPECT_VERDICT=offline EXPECT_REASON=timeout
    CHECKS=(
        'elapsed <= timeout + 1.0'
        '[(p["interface"], p["family"]) for p in r["paths"]] == [("tun0", "ipv4"), ("eth0", "ipv4")]'
        'path("tun0", "ipv4")["default"] is True and path("eth0", "ipv4")["default"] is False'
        'path("tun0", "ipv4")["verdict"] == "offline"'
        'path("eth0", "ipv4")["verdict"] == "online" and path("eth0", "ipv4")["reason"] == "probes-validated"'
        'counters["client_syns"] > 0'
    )
    lab_do counters_reset
    np_step all-paths check --json --all-paths --timeout "$TIMEOUT"
    np_steps_result
}
