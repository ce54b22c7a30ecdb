# shellcheck shell=bash disable=SC2034 # a scenario: lab up runs setup(), lab/test reads the rest
DESCRIPTION="--capport-url names a plain-http API: treated as an announced one, not queried, said why"
setup() {
    client_ipv4
    dns_vendors
    web_vendors
}
NETPROBE_ARGS=(--capport-url http://capport.portal.test/captive)
EXPECT_EXIT=0
EXPECT_VERDICT=online
EXPECT_REASON=probes-validated
CHECKS=(
    'r["portal"] is None'
    'r["capport"]["uri"] == "http://capport.portal.test/captive" and r["capport"]["source"] == "option"'
    'r["capport"]["state"] == "failed" and r["capport"]["error"].startswith("not queried: not an https URL")'
    'r["capport"]["captive"] is None and r["capport"]["status"] is None'
    'counters["client_capport"] == 0'
)
