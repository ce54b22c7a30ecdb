# shellcheck shell=bash disable=SC2034 # a scenario: lab up runs setup(), lab/test reads the rest
DESCRIPTION="a VPN whose only route is a host route for 8.8.8.8 into its dead tunnel (DNS-leak protection) beside eth0's default: the stand-in destination names tun0, but every probe goes out on eth0: online on eth0, each probe's interface eth0; --all-paths: eth0 the machine's own path"
setup() {
    client_ipv4
    dns_vendors
    web_vendors
    client_tun 4 --route 8.8.8.8/32
}
scenario_test() {
    # 1. Plain check: the kernel's answer for the stand-in 8.8.8.8 is tun0, but the probes'
    #    own destinations route through eth0: the path is named eth0, and so is each probe's
    #    device; nothing goes into the tunnel.
    TIMEOUT=5 EXPECT_EXIT=0 EXPECT_VERDICT=online EXPECT_REASON=probes-validated
    CHECKS=(
        '[k["interface"] for k in r["kernel_routes"] if k["family"] == "ipv4"] == ["tun0"]'
        'len(r["paths"]) == 1 and path("eth0", None)["default"] is True'
        'all(p["interface"] == "eth0" for p in probes if p["outcome"] == "success")'
        'sum(p["outcome"] == "success" for p in probes) >= 2'
        'counters["client_syns"] > 0'
    )
    lab_do counters_reset
    np_step plain check --json --timeout "$TIMEOUT"

    # 2. Every path: tun0 (bound, dead) and eth0. The probes' destinations route through
    #    eth0, so eth0 is the machine's own path and the overall answer is its: online.
    TIMEOUT=3 EXPECT_EXIT=0 EXPECT_VERDICT=online EXPECT_REASON=probes-validated
    CHECKS=(
        'sorted((p["interface"], p["family"]) for p in r["paths"]) == [("eth0", "ipv4"), ("tun0", "ipv4")]'
        'path("eth0", "ipv4")["default"] is True and path("tun0", "ipv4")["default"] is False'
        'path("eth0", "ipv4")["verdict"] == "online" and path("tun0", "ipv4")["verdict"] == "offline"'
        'all(p["interface"] == "tun0" for p in path("tun0", "ipv4")["probes"] if p["interface"] is not None)'
    )
    lab_do counters_reset
    np_step all-paths check --json --all-paths --timeout "$TIMEOUT"
    np_steps_result
}
