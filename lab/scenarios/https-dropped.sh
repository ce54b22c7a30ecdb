# shellcheck shell=bash disable=SC2034 # a scenario: lab up runs setup(), lab/test reads the rest
DESCRIPTION="HTTPS silently dropped, HTTP fine: online at once, partial after a bounded grace"
setup() {
    client_ipv4
    dns_vendors
    web_vendors
    block "tcp dport 443" drop
}
TIMEOUT=10
EXPECT_EXIT=0
EXPECT_VERDICT=online
EXPECT_REASON=probes-validated
CHECKS=(
    'r["partial"] is True'
    'probe("www.google.com")["outcome"] == "failure"'
    'probe("www.google.com")["error_class"] == "timeout"'
    # Every HTTPS probe asked is named, in name order: the first wave's HTTPS silent through its
    # grace sends every other probe (waves), so never fewer than two.
    'sum(n + ": timeout: " in r["partial_error"] for n in ("apple-https", "cloudflare-https", "google-https")) >= 2'
    'all(p["outcome"] in ("failure", "skipped") for p in probes if p["url"].startswith("https://"))'
    # The grace is bounded by what the check had taken (x3, 100 ms at least), never the probe timeout.
    'r["duration_ms"] < 2000'
    'counters["client_https"] > 0'
)
