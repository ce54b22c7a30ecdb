# shellcheck shell=bash disable=SC2034 # a scenario: lab up runs setup(), lab/test reads the rest
DESCRIPTION="open network: every vendor answers correctly (IPv4)"
setup() {
    client_ipv4
    dns_vendors
    web_vendors
}
EXPECT_EXIT=0
EXPECT_VERDICT=online
EXPECT_REASON=probes-validated
CHECKS=(
    'r["portal"] is None'
    'not r["partial"]'
    'r["quorum"]["success"] >= r["quorum"]["required"]'
    'all(p["outcome"] in ("success", "skipped") for p in probes)'
    'probe("captive.apple.com")["outcome"] in ("success", "skipped")'
    'any(p["outcome"] == "success" and p["remote_address"].startswith("203.0.113.") for p in probes)'
    'counters["client_dns"] > 0 and counters["client_syns"] > 0'
    # A plain network: no Captive Portal API announced, no proxy, no lying resolver.
    'r["capport"] is None and r["proxy"] is False and r["dns_hijack"] is False'
    'all(p["dns_hijack"] in (False, None) for p in probes)'
    'r["partial_error"] is None'
    # The canary goes with the later probes only: none held back (skipped as decided), none sent.
    '(r["dns_canary"] is None) == any(p["skip_reason"] == "decided" for p in probes)'
    'r["dns_canary"] is None or (r["dns_canary"]["name"].endswith(".invalid") and r["dns_canary"]["resolved"] is not True)'
)
