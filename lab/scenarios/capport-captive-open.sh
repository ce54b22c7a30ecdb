# shellcheck shell=bash disable=SC2034 # a scenario: lab up runs setup(), lab/test reads the rest
DESCRIPTION="probes let through, but the network's Captive Portal API says captive (authoritative)"
setup() {
    client_ipv4
    dns_vendors
    web_vendors
    capport_announce https://capport.portal.test/captive
}
EXPECT_EXIT=2
EXPECT_VERDICT=portal
EXPECT_REASON=capport-captive
CHECKS=(
    'all(p["outcome"] in ("success", "skipped") for p in probes)'
    'r["capport"]["state"] == "answered" and r["capport"]["captive"] is True'
    'r["portal"]["source"] == "capport" and r["portal"]["url"] == "https://login.portal.test/portal?venue=lab"'
    'r["portal"]["probe"] is None'
    'counters["client_capport"] > 0'
)
