# shellcheck shell=bash disable=SC2034 # a scenario: lab up runs setup(), lab/test reads the rest
# Exercises the CLI's proxy handling (environment proxy, probe key "proxy").
# shellcheck source=lab/lib/proxy.sh
source "$LAB_DIR/lib/proxy.sh"
DESCRIPTION="direct :80/:443 rejected, http_proxy/https_proxy set: online through the proxy"
setup() {
    client_ipv4
    dns_vendors "$(forward_proxy_host_record)"
    web_vendors
    forward_proxy normal
    direct_web_rejected
}
EXPECT_EXIT=0
EXPECT_VERDICT=online
EXPECT_REASON=probes-validated
CHECKS=(
    "all(p['proxy'] == '$FORWARD_PROXY_URL' for p in probes if p['outcome'] != 'skipped')"
    'r["partial"] is False'
    'sum(1 for p in probes if p["outcome"] == "success") >= 2'
    # The proxy is no transparent one, and it is not the far side: no hijack read from its address.
    'r["proxy"] is False and r["dns_hijack"] is False'
    'r["portal"] is None'
)
scenario_test() {
    proxy_default_test "${PROXY_ENV[@]}"
}
