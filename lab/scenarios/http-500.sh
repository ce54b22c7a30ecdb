# shellcheck shell=bash disable=SC2034 # a scenario: lab up runs setup(), lab/test reads the rest
DESCRIPTION="every plain-HTTP answer a 500 from a broken box, HTTPS fine: online from certificate-verified HTTPS"
setup() {
    client_ipv4
    dns_vendors
    web_vendors
    portal error-500 --https open
}
EXPECT_EXIT=0
EXPECT_VERDICT=online
EXPECT_REASON=probes-validated
CHECKS=(
    'all(p["outcome"] == "success" for p in probes if p["url"].startswith("https://"))'
    'all(p["outcome"] == "failure" and p["error_class"] == "http-5xx" and p["status"] == 500 for p in probes if p["url"].startswith("http://") and p["outcome"] != "skipped")'
    'any(p["status"] == 500 for p in probes)'
    'r["partial"] is False and r["portal"] is None'
    'r["duration_ms"] < 2000'
    'r["capport"] is None and r["proxy"] is False and r["dns_hijack"] is False'
)
