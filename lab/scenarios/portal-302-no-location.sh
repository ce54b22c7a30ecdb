# shellcheck shell=bash disable=SC2034 # a scenario: lab up runs setup(), lab/test reads the rest
DESCRIPTION="HTTP intercepted: a 302 without Location; the page to open is the probe's own"
setup() {
    client_ipv4
    dns_vendors
    web_vendors
    portal redirect-no-location
}
EXPECT_EXIT=2
EXPECT_VERDICT=portal
EXPECT_REASON=http-redirect
CHECKS=(
    'any(p["outcome"] == "portal" and p["status"] == 302 and p["headers"]["location"] is None for p in probes)'
    'probe_page(r) and r["portal"]["status"] == 302'
    'not any(p["outcome"] == "success" for p in probes)'
    'text_status == 2 and text_probe_page()'
    'r["capport"] is None and r["proxy"] is False and r["dns_hijack"] is False'
)
scenario_test() {
    np_run_text check --timeout "$TIMEOUT"
    default_test
}
