# shellcheck shell=bash disable=SC2034 # a scenario: lab up runs setup(), lab/test reads the rest
DESCRIPTION="a dead VPN tunnel (tun0, metric 50) over a working uplink (eth0, metric 200): offline; eth0 path online"
setup() {
    client_ipv4 --metric 200     # the uplink works (the nameserver is on-link there)
    dns_vendors
    web_vendors
    client_tun 4 --metric 50     # the tunnel carries the preferred default route; its far end is gone
}
scenario_test() {
    # 1. Plain check: the path under the preferred default route is the
    #    tunnel; names resolve (on-link nameserver), connections vanish into
    #    it: offline when the deadline passes, and no TCP reaches the gateway.
    TIMEOUT=3 EXPECT_EXIT=1 EXPECT_VERDICT=offline EXPECT_REASON=timeout
    CHECKS=(
        # A tunnel has no neighbour to ask about: the evidence does not tell, and no fault is named.
        'r["fault"] is None and r["fault_detail"] is None'
        'elapsed <= timeout + 1.0'
        'iface("tun0")["type"] == "tunnel" and iface("tun0")["up"] is True'
        'sorted((d["interface"], d["metric"]) for d in r["default_routes"]) == [("eth0", 200), ("tun0", 50)]'
        'all(p["outcome"] in ("failure", "skipped") for p in probes)'
        'counters["client_dns"] > 0 and counters["client_syns"] == 0 and counters["client_tun0_tx"] > 0'
        'len(r["paths"]) == 1'
        'path("tun0", None)["default"] is True'
        'path("tun0", None)["verdict"] == "offline" and path("tun0", None)["reason"] == "timeout"'
    )
    lab_do counters_reset
    np_step plain check --json --timeout "$TIMEOUT"

    # 2. Every path: the tunnel offline, the uplink under it online. The
    #    tunnel carries the preferred default route, so the overall answer is
    #    its: offline, exit 1. The uplink's verdict is news, not the answer.
    TIMEOUT=3 EXPECT_EXIT=1 EXPECT_VERDICT=offline EXPECT_REASON=timeout
    CHECKS=(
        'elapsed <= timeout + 1.0'
        'sorted((p["interface"], p["family"]) for p in r["paths"]) == [("eth0", "ipv4"), ("tun0", "ipv4")]'
        'path("tun0", "ipv4")["default"] is True and path("eth0", "ipv4")["default"] is False'
        'path("tun0", "ipv4")["verdict"] == "offline" and path("tun0", "ipv4")["reason"] == "timeout"'
        'all(p["outcome"] in ("failure", "skipped") for p in path("tun0", "ipv4")["probes"])'
        'path("eth0", "ipv4")["verdict"] == "online" and path("eth0", "ipv4")["reason"] == "probes-validated"'
        'path("eth0", "ipv4")["portal"] is None'
        'r["portal"] is None'
        '[(p["name"], p["outcome"]) for p in path("tun0", "ipv4")["probes"]] == [(p["name"], p["outcome"]) for p in probes]'
        'counters["client_syns"] > 0'
    )
    lab_do counters_reset
    np_step all-paths check --json --all-paths --timeout "$TIMEOUT"
    np_steps_result
}
