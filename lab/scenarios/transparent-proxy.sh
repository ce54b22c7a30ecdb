# shellcheck shell=bash disable=SC2034 # a scenario: lab up runs setup(), lab/test reads the rest
DESCRIPTION="open network behind a transparent HTTP proxy stamping Via and X-Cache"
setup() {
    client_ipv4
    dns_vendors
    web_vendors
    transparent_proxy
}
EXPECT_EXIT=0
EXPECT_VERDICT=online
EXPECT_REASON=probes-validated
CHECKS=(
    'r["proxy"] is True'
    'sum(1 for p in probes if p["outcome"] == "success" and p["url"].startswith("http:")) >= 2'
    'all(p["headers"]["via"] == "1.1 proxy.lab (nginx)" for p in probes if p["outcome"] == "success" and p["url"].startswith("http:"))'
    'r["portal"] is None and r["partial"] is False'
    'r["dns_hijack"] is False and r["capport"] is None'
)
