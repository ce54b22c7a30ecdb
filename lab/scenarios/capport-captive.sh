# shellcheck shell=bash disable=SC2034 # a scenario: lab up runs setup(), lab/test reads the rest
DESCRIPTION="portal that announces its Captive Portal API (networkd state file): API says captive"
setup() {
    client_ipv4
    dns_vendors
    web_vendors
    portal login-page     # HTTPS dropped, except to the API (RFC 8908)
    capport_announce https://capport.portal.test/captive
}
EXPECT_EXIT=2
EXPECT_VERDICT=portal
EXPECT_REASON=capport-captive   # outranks the probes' wrong-content
CHECKS=(
    'r["portal"]["source"] == "capport" and r["portal"]["url"] == "https://login.portal.test/portal?venue=lab"'
    'r["portal"]["probe"] is None'
    'r["capport"]["uri"] == "https://capport.portal.test/captive" and r["capport"]["source"] == "systemd-networkd"'
    'r["capport"]["interface"] == "eth0" and r["capport"]["state"] == "answered" and r["capport"]["status"] == 200'
    'r["capport"]["captive"] is True and r["capport"]["error"] is None'
    'r["capport"]["user_portal_url"] == "https://login.portal.test/portal?venue=lab"'
    'r["capport"]["venue_info_url"] == "http://login.portal.test/venue"'
    'r["capport"]["can_extend_session"] is False'
    'r["capport"]["seconds_remaining"] is None and r["capport"]["bytes_remaining"] is None'
    'any(p["outcome"] == "portal" for p in probes)'
    'counters["client_capport"] > 0'
)
