# shellcheck shell=bash disable=SC2034 # a scenario: lab up runs setup(), lab/test reads the rest
DESCRIPTION="HTTPS blocked (TCP reset), HTTP fine: online, partial"
setup() {
    client_ipv4
    dns_vendors
    web_vendors
    block "tcp dport 443" reset
}
EXPECT_EXIT=0
EXPECT_VERDICT=online
EXPECT_REASON=probes-validated
CHECKS=(
    'r["partial"] is True'
    'probe("www.google.com")["outcome"] == "failure"'
    'probe("www.google.com")["error_class"] in ("refused", "reset")'
    'counters["client_https"] > 0'
)
