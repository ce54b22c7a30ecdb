# shellcheck shell=bash disable=SC2034 # a scenario: lab up runs setup(), lab/test reads the rest
DESCRIPTION="dual stack, IPv6 to the vendors black-holed: online; per path ipv4 online, ipv6 offline (timeout)"
setup() {
    client_ipv4
    client_ipv6
    dns_vendors
    web_vendors
    blackhole 6           # every vendor's IPv6 address drops the client's packets; DNS is fine
}
scenario_test() {
    # 1. Plain check, the default budget: one path (eth0, the family left to
    #    the system), online well within it: Happy Eyeballs falls back to IPv4.
    TIMEOUT=10 EXPECT_EXIT=0 EXPECT_VERDICT=online EXPECT_REASON=probes-validated
    CHECKS=(
        'elapsed < timeout / 2'
        'r["portal"] is None'
        'any(p["outcome"] == "success" and p["remote_address"].startswith("203.0.113.") for p in probes)'
        'len(r["paths"]) == 1'
        'path("eth0", None)["default"] is True'
        'path("eth0", None)["verdict"] == "online" and path("eth0", None)["reason"] == "probes-validated"'
        'path("eth0", None)["portal"] is None'
        'isinstance(path("eth0", None)["duration_ms"], (int, float))'
        # Without --all-paths the one path is the overall answer.
        '[(p["name"], p["outcome"]) for p in path("eth0", None)["probes"]] == [(p["name"], p["outcome"]) for p in probes]'
    )
    np_step plain check --json

    # 2. Every path on its own, with a short deadline for the black-holed one:
    #    IPv4 online, IPv6 offline for want of any answer; both carry their
    #    family's only default route, so the overall answer is the best: online.
    TIMEOUT=3 EXPECT_EXIT=0 EXPECT_VERDICT=online EXPECT_REASON=probes-validated
    CHECKS=(
        'elapsed <= timeout + 1.0'
        'sorted((p["interface"], p["family"]) for p in r["paths"]) == [("eth0", "ipv4"), ("eth0", "ipv6")]'
        'all(p["default"] is True for p in r["paths"])'
        'path("eth0", "ipv4")["verdict"] == "online" and path("eth0", "ipv4")["reason"] == "probes-validated"'
        'path("eth0", "ipv4")["portal"] is None'
        'all(p["remote_address"].startswith("203.0.113.") for p in path("eth0", "ipv4")["probes"] if p["outcome"] == "success")'
        'path("eth0", "ipv6")["verdict"] == "offline" and path("eth0", "ipv6")["reason"] == "timeout"'
        # Each path names its own failed hop: the IPv6 router answers ND, nothing beyond it does.
        'path("eth0", "ipv6")["fault"] == "upstream" and "2001:db8:1::1" in path("eth0", "ipv6")["fault_detail"]'
        'path("eth0", "ipv4")["fault"] is None and r["fault"] is None'
        'path("eth0", "ipv6")["portal"] is None'
        'all(p["outcome"] in ("failure", "skipped") for p in path("eth0", "ipv6")["probes"])'
        'any(p["outcome"] == "failure" and p["error_class"] == "timeout" for p in path("eth0", "ipv6")["probes"])'
        'path("eth0", "ipv6")["duration_ms"] <= timeout * 1000 + 500'
        # The overall answer is the online path's.
        'r["portal"] is None'
        '[(p["name"], p["outcome"]) for p in path("eth0", "ipv4")["probes"]] == [(p["name"], p["outcome"]) for p in probes]'
    )
    np_step all-paths check --json --all-paths --timeout "$TIMEOUT"
    np_steps_result
}
