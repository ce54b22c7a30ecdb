# shellcheck shell=bash disable=SC2034 # a scenario: lab up runs setup(), lab/test reads the rest
DESCRIPTION="the network announces a plain-http Captive Portal API: not queried, said why, nothing sent to it"
setup() {
    client_ipv4
    dns_vendors
    web_vendors
    capport_announce http://capport.portal.test/captive
}
EXPECT_EXIT=0
EXPECT_VERDICT=online
EXPECT_REASON=probes-validated
CHECKS=(
    'r["portal"] is None'
    'r["capport"]["uri"] == "http://capport.portal.test/captive"'
    'r["capport"]["state"] == "failed" and r["capport"]["error"].startswith("not queried: not an https URL")'
    'r["capport"]["captive"] is None and r["capport"]["status"] is None'
    'counters["client_capport"] == 0'
)
