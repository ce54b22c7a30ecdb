# shellcheck shell=bash disable=SC2034 # a scenario: lab up runs setup(), lab/test reads the rest
DESCRIPTION="open network whose Captive Portal API answers text/html: ignored (failed), online"
setup() {
    client_ipv4
    dns_vendors
    web_vendors
    capport_announce https://capport.portal.test/not-json
}
EXPECT_EXIT=0
EXPECT_VERDICT=online
EXPECT_REASON=probes-validated
CHECKS=(
    'r["portal"] is None'
    'r["capport"]["state"] == "failed" and r["capport"]["error"]'
    'r["capport"]["captive"] is None'
    'counters["client_capport"] > 0'
)
