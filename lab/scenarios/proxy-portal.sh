# shellcheck shell=bash disable=SC2034 # a scenario: lab up runs setup(), lab/test reads the rest
# Exercises the CLI's proxy handling (environment proxy).
# shellcheck source=lab/lib/proxy.sh
source "$LAB_DIR/lib/proxy.sh"
DESCRIPTION="a guest network's proxy: every GET redirected to its login page, CONNECT refused: portal"
setup() {
    client_ipv4
    dns_vendors "$(forward_proxy_host_record)"
    web_vendors
    forward_proxy portal
    direct_web_rejected
}
EXPECT_EXIT=2
EXPECT_VERDICT=portal
EXPECT_REASON=http-redirect
CHECKS=(
    "r['portal']['url'] == '$FORWARD_PROXY_LOGIN_URL'"
    'any(p["outcome"] == "portal" and p["status"] == 302 for p in probes)'
    'not any(p["outcome"] == "success" for p in probes)'
    "all(p['proxy'] == '$FORWARD_PROXY_URL' for p in probes if p['outcome'] != 'skipped')"
)
scenario_test() {
    proxy_default_test "${PROXY_ENV[@]}"
}
