# shellcheck shell=bash disable=SC2034 # a scenario: lab up runs setup(), lab/test reads the rest
DESCRIPTION="the router loses its way on for a moment: the first data segment of every web connection is dropped and answered with ICMP network unreachable, the retransmission goes through: online, no connection ended by the soft error"
setup() {
    client_ipv4
    dns_vendors
    web_vendors
    unreachable_once 4
}
TIMEOUT=6
EXPECT_EXIT=0
EXPECT_VERDICT=online
EXPECT_REASON=probes-validated
CHECKS=(
    # The router did say it: every connection sent met one error after its handshake.
    'counters["transient_unreachable"] > 0'
    # No probe sent ended on it: each retransmitted and was answered.
    'all(p["outcome"] in ("success", "skipped") for p in probes)'
    'r["fault"] is None'
)
