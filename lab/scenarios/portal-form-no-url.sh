# shellcheck shell=bash disable=SC2034 # a scenario: lab up runs setup(), lab/test reads the rest
DESCRIPTION="HTTP intercepted: a login form naming no URL at all in place of every page; the page to open is the probe's own"
setup() {
    client_ipv4
    dns_vendors
    web_vendors
    portal form-no-url
}
EXPECT_EXIT=2
EXPECT_VERDICT=portal
EXPECT_REASON=wrong-content
CHECKS=(
    # The network named no page: the intercepted probe's own http:// URL, the smallest of those
    # the portal answered (whichever landed first), with source probe; on the path too.
    'probe_page(r) and r["portal"]["status"] == 200'
    'all(probe_page(p) for p in r["paths"])'
    'not any(p["outcome"] == "success" for p in probes)'
    # The text output gives it as the page to open.
    'text_status == 2 and text_probe_page()'
    'r["capport"] is None and r["proxy"] is False and r["dns_hijack"] is False'
)
scenario_test() {
    np_run_text check --timeout "$TIMEOUT"
    default_test
}
