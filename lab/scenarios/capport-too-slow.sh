# shellcheck shell=bash disable=SC2034 # a scenario: lab up runs setup(), lab/test reads the rest
DESCRIPTION="probes let through, the Captive Portal API silent for 4 s: online after a bounded wait"
setup() {
    client_ipv4
    dns_vendors
    web_vendors
    capport_announce https://capport.portal.test/captive
    slow_capport 4
}
EXPECT_EXIT=0
EXPECT_VERDICT=online
EXPECT_REASON=probes-validated
CHECKS=(
    'r["portal"] is None'
    'r["capport"]["state"] == "failed" and r["capport"]["error"] and r["capport"]["captive"] is None'
    # Waiting for the API is bounded well below both its delay and --timeout.
    'r["duration_ms"] < 3000 and elapsed < 3.5'
    'counters["client_capport"] > 0'
)
