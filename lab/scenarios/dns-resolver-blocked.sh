# shellcheck shell=bash disable=SC2034 # a scenario: lab up runs setup(), lab/test reads the rest
DESCRIPTION="an open network that drops DNS to the user's own resolver (203.0.113.53) while its own (the gateway, via networkd) answers: offline resolver-blocked, the probes validated through the link's resolver and the configured one asked again first"
setup() {
    client_ipv4
    dns_vendors
    web_vendors
    own_resolver 203.0.113.53 drop
    link_dns_announce networkd 198.51.100.1
}
TIMEOUT=8
EXPECT_EXIT=1
EXPECT_VERDICT=offline
EXPECT_REASON=resolver-blocked
CHECKS=(
    'r["fault"] == "dns" and "no answer on this network" in r["fault_detail"]'
    'r["portal"] is None'
    'r["dns"]["used"] == "link" and r["dns"]["link_server"] == "198.51.100.1"'
    'sum(p["outcome"] == "success" and p["resolver"] == "link" for p in probes) >= 2'
    'r["quorum"]["success"] >= 2'
    'r["dns"]["configured_retried"] is True'
    # netprobe's own time to verdict (1 s for the configured resolvers, the link's answers,
    # 1.5 s for the configured ones asked again), with the wall clock's bound looser: the
    # process start on a loaded machine is not the verdict's time.
    'r["duration_ms"] < 3000 and elapsed < 4'
)
