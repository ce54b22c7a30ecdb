# shellcheck shell=bash disable=SC2034 # a scenario: lab up runs setup(), lab/test reads the rest
DESCRIPTION="--capport-url names the API (captive) and outranks the one the network announced"
setup() {
    client_ipv4
    dns_vendors
    web_vendors
    capport_announce https://capport.portal.test/open-session
}
NETPROBE_ARGS=(--capport-url https://capport.portal.test/captive)
EXPECT_EXIT=2
EXPECT_VERDICT=portal
EXPECT_REASON=capport-captive
CHECKS=(
    'r["capport"]["uri"] == "https://capport.portal.test/captive" and r["capport"]["source"] == "option"'
    'r["capport"]["interface"] is None and r["capport"]["state"] == "answered" and r["capport"]["captive"] is True'
    'r["portal"]["source"] == "capport" and r["portal"]["url"] == "https://login.portal.test/portal?venue=lab"'
    'all(p["outcome"] in ("success", "skipped") for p in probes)'
)
