# shellcheck shell=bash disable=SC2034 # a scenario: lab up runs setup(), lab/test reads the rest
DESCRIPTION="open network whose Captive Portal API says not captive, with time and bytes left"
setup() {
    client_ipv4
    dns_vendors
    web_vendors
    capport_announce https://capport.portal.test/open-session
}
EXPECT_EXIT=0
EXPECT_VERDICT=online
EXPECT_REASON=probes-validated
CHECKS=(
    # Not a portal verdict: the portal object carries only the session's end (seconds-remaining from the check's start).
    'r["portal"]["url"] is None and r["portal"]["source"] is None and r["portal"]["probe"] is None'
    'r["portal"]["expires_at"].endswith("Z") and len(r["portal"]["expires_at"]) == 20'
    '3599 <= __import__("datetime").datetime.fromisoformat(r["portal"]["expires_at"][:-1]).timestamp() - __import__("datetime").datetime.fromisoformat(r["timestamp"][:-1]).timestamp() <= 3600'
    'r["capport"]["uri"] == "https://capport.portal.test/open-session" and r["capport"]["source"] == "systemd-networkd"'
    'r["capport"]["state"] == "answered" and r["capport"]["status"] == 200 and r["capport"]["captive"] is False'
    'r["capport"]["seconds_remaining"] == 3600 and r["capport"]["bytes_remaining"] == 1000000000'
    'r["capport"]["can_extend_session"] is True'
    'r["capport"]["user_portal_url"] == "https://login.portal.test/portal?venue=lab"'
    'all(p["outcome"] in ("success", "skipped") for p in probes)'
    'counters["client_capport"] > 0'
    # The Prometheus run of the same network (text): the session's time and bytes left.
    'text_status == 0'
    '"netprobe_capport_captive 0" in text.splitlines()'
    '"netprobe_portal_seconds_remaining 3600" in text.splitlines()'
    '"netprobe_portal_bytes_remaining 1000000000" in text.splitlines()'
)
scenario_test() {
    np_run_text check --format prometheus --timeout "$TIMEOUT"
    default_test
}
