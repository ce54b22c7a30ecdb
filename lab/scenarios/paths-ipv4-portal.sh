# shellcheck shell=bash disable=SC2034 # a scenario: lab up runs setup(), lab/test reads the rest
# The overall verdict is the best among the paths carrying their family's
# preferred default route: here both do, so IPv6's online outranks IPv4's portal.
DESCRIPTION="dual stack, IPv4 HTTP intercepted (302), IPv6 open: path ipv4 portal, ipv6 online; overall online (best default path)"
setup() {
    client_ipv4
    client_ipv6
    dns_vendors
    web_vendors
    portal redirect --family 4   # IPv4: tcp/80 to the 302 portal, HTTPS dropped; IPv6 untouched
}
scenario_test() {
    # 1. Plain check: one path, the family left to the system, which prefers
    #    IPv6 (RFC 6724): online, and nothing of the IPv4 portal is seen.
    TIMEOUT=10 EXPECT_EXIT=0 EXPECT_VERDICT=online EXPECT_REASON=probes-validated
    CHECKS=(
        'r["portal"] is None'
        'any(p["outcome"] == "success" and p["remote_address"].startswith("2001:db8:2::") for p in probes)'
        'len(r["paths"]) == 1'
        'path("eth0", None)["default"] is True'
        'path("eth0", None)["verdict"] == "online" and path("eth0", None)["reason"] == "probes-validated"'
        'path("eth0", None)["portal"] is None'
        '[(p["name"], p["outcome"]) for p in path("eth0", None)["probes"]] == [(p["name"], p["outcome"]) for p in probes]'
    )
    np_step plain check --json --timeout "$TIMEOUT"

    # 2. Every path on its own: the IPv4 path meets the portal (with its login
    #    URL), the IPv6 path is online. Both carry their family's default route;
    #    the overall answer is the best of them: online, exit 0.
    TIMEOUT=10 EXPECT_EXIT=0 EXPECT_VERDICT=online EXPECT_REASON=probes-validated
    CHECKS=(
        'sorted((p["interface"], p["family"]) for p in r["paths"]) == [("eth0", "ipv4"), ("eth0", "ipv6")]'
        'all(p["default"] is True for p in r["paths"])'
        'path("eth0", "ipv4")["verdict"] == "portal" and path("eth0", "ipv4")["reason"] == "http-redirect"'
        'path("eth0", "ipv4")["portal"]["url"] == "http://login.portal.test/login?venue=lab"'
        'any(p["outcome"] == "portal" and p["status"] == 302 for p in path("eth0", "ipv4")["probes"])'
        'not any(p["outcome"] == "success" for p in path("eth0", "ipv4")["probes"])'
        'path("eth0", "ipv6")["verdict"] == "online" and path("eth0", "ipv6")["reason"] == "probes-validated"'
        'path("eth0", "ipv6")["portal"] is None'
        'all(p["outcome"] in ("success", "skipped") for p in path("eth0", "ipv6")["probes"])'
        'all(p["remote_address"].startswith("2001:db8:2::") for p in path("eth0", "ipv6")["probes"] if p["outcome"] == "success")'
        # The overall answer is the online path's: no portal at the top.
        'r["portal"] is None'
        '[(p["name"], p["outcome"]) for p in path("eth0", "ipv6")["probes"]] == [(p["name"], p["outcome"]) for p in probes]'
    )
    np_step all-paths check --json --all-paths --timeout "$TIMEOUT"
    np_steps_result
}
