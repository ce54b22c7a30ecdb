# shellcheck shell=bash disable=SC2034 # a scenario: lab up runs setup(), lab/test reads the rest
DESCRIPTION="probes let through, the Captive Portal API says captive after 0.5 s: the verdict waits for it"
setup() {
    client_ipv4
    dns_vendors
    web_vendors
    capport_announce https://capport.portal.test/captive
    slow_capport 0.5
}
EXPECT_EXIT=2
EXPECT_VERDICT=portal
EXPECT_REASON=capport-captive
CHECKS=(
    'all(p["outcome"] in ("success", "skipped") for p in probes)'
    'r["capport"]["state"] == "answered" and r["capport"]["captive"] is True'
    'r["capport"]["duration_ms"] >= 500'
    'r["duration_ms"] >= 500 and elapsed < 2.5'
    'r["portal"]["source"] == "capport"'
)
