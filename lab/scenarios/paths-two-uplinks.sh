# shellcheck shell=bash disable=SC2034 # a scenario: lab up runs setup(), lab/test reads the rest
DESCRIPTION="two uplinks: eth0 (metric 100) behind a 302 portal, eth1 (metric 200) open: portal; -i eth1 online"
setup() {
    client_ipv4 --metric 100     # first uplink, eth0 <-> lan0: the preferred default route
    client_uplink2 4 --metric 200  # second uplink, eth1 <-> lan1
    dns_vendors
    web_vendors
    portal redirect --iif lan0   # what arrives through the first uplink; the second stays open
}
scenario_test() {
    # 1. Plain check: the path under the preferred default route, eth0: portal.
    #    Nothing goes out through the second uplink.
    TIMEOUT=10 EXPECT_EXIT=2 EXPECT_VERDICT=portal EXPECT_REASON=http-redirect
    CHECKS=(
        'r["portal"]["url"] == "http://login.portal.test/login?venue=lab"'
        'sorted((d["interface"], d["metric"]) for d in r["default_routes"]) == [("eth0", 100), ("eth1", 200)]'
        'counters["client_syns"] > 0 and counters["uplink2_syns"] == 0'
        'len(r["paths"]) == 1'
        'path("eth0", None)["default"] is True'
        'path("eth0", None)["verdict"] == "portal" and path("eth0", None)["reason"] == "http-redirect"'
        'path("eth0", None)["portal"]["url"] == "http://login.portal.test/login?venue=lab"'
    )
    lab_do counters_reset
    np_step plain check --json --timeout "$TIMEOUT"

    # 2. Only the second uplink (-i eth1): its probes are bound to it and meet
    #    no portal: online, and no TCP through the first uplink.
    TIMEOUT=10 EXPECT_EXIT=0 EXPECT_VERDICT=online EXPECT_REASON=probes-validated
    CHECKS=(
        'r["portal"] is None'
        'all(p["outcome"] in ("success", "skipped") for p in probes)'
        'counters["uplink2_syns"] > 0 and counters["client_syns"] == 0'
        'len(r["paths"]) == 1'
        'path("eth1", None)["verdict"] == "online" and path("eth1", None)["reason"] == "probes-validated"'
        'path("eth1", None)["portal"] is None'
    )
    lab_do counters_reset
    np_step second-uplink check --json -i eth1 --timeout "$TIMEOUT"

    # 3. Every path: eth0 (the preferred default route) portal, eth1 online but
    #    not the default. The overall answer is the default path's: portal, exit 2.
    TIMEOUT=10 EXPECT_EXIT=2 EXPECT_VERDICT=portal EXPECT_REASON=http-redirect
    CHECKS=(
        'sorted((p["interface"], p["family"]) for p in r["paths"]) == [("eth0", "ipv4"), ("eth1", "ipv4")]'
        'path("eth0", "ipv4")["default"] is True and path("eth1", "ipv4")["default"] is False'
        'path("eth0", "ipv4")["verdict"] == "portal" and path("eth0", "ipv4")["reason"] == "http-redirect"'
        'path("eth0", "ipv4")["portal"]["url"] == "http://login.portal.test/login?venue=lab"'
        'path("eth1", "ipv4")["verdict"] == "online" and path("eth1", "ipv4")["reason"] == "probes-validated"'
        'path("eth1", "ipv4")["portal"] is None'
        'all(p["outcome"] in ("success", "skipped") for p in path("eth1", "ipv4")["probes"])'
        'r["portal"]["url"] == "http://login.portal.test/login?venue=lab"'
        '[(p["name"], p["outcome"]) for p in path("eth0", "ipv4")["probes"]] == [(p["name"], p["outcome"]) for p in probes]'
        'counters["client_syns"] > 0 and counters["uplink2_syns"] > 0'
    )
    lab_do counters_reset
    np_step all-paths check --json --all-paths --timeout "$TIMEOUT"
    np_steps_result
}
