# shellcheck shell=bash disable=SC2034 # a scenario: lab up runs setup(), lab/test reads the rest
DESCRIPTION="port 80 silently dropped, HTTPS fine: online from certificate-verified HTTPS alone, at once"
setup() {
    client_ipv4
    dns_vendors
    web_vendors
    block "tcp dport 80" drop
}
TIMEOUT=10
EXPECT_EXIT=0
EXPECT_VERDICT=online
EXPECT_REASON=probes-validated
CHECKS=(
    'r["quorum"]["success"] >= r["quorum"]["required"]'
    # HTTPS asked as far as the quorum needs (waves): every one asked validated.
    'all(p["outcome"] in ("success", "skipped") for p in probes if p["url"].startswith("https://"))'
    # Plain HTTP silent: after the bounded grace, each one sent a time-out (never a portal); the
    # later waves' plain HTTP is not needed once HTTPS made the quorum.
    'all(p["outcome"] == "skipped" or (p["outcome"] == "failure" and p["error_class"] == "timeout") for p in probes if p["url"].startswith("http://"))'
    'all("after HTTPS had validated for a quorum of operators" in p["error"] for p in probes if p["url"].startswith("http://") and p["outcome"] == "failure")'
    'sum(p["outcome"] == "failure" for p in probes if p["url"].startswith("http://")) >= 2'
    # HTTPS works: not partial.
    'r["partial"] is False and r["partial_error"] is None'
    'r["portal"] is None'
    # The grace is bounded by what the check had taken (x3, 100 ms at least), never the probe timeout.
    'r["duration_ms"] < 2000'
    'counters["client_http"] > 0 and counters["client_https"] > 0'
    'r["capport"] is None and r["proxy"] is False and r["dns_hijack"] is False'
)
