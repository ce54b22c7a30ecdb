# shellcheck shell=bash disable=SC2034 # a scenario: lab up runs setup(), lab/test reads the rest
# Exercises the CLI's proxy handling (environment proxy, reason proxy-failed).
# shellcheck source=lab/lib/proxy.sh
source "$LAB_DIR/lib/proxy.sh"
DESCRIPTION="proxy variables set, nothing listens on the proxy's port: offline at once"
setup() {
    client_ipv4
    dns_vendors "$(forward_proxy_host_record)"
    web_vendors
    forward_proxy down
    direct_web_rejected
}
EXPECT_EXIT=1
EXPECT_VERDICT=offline
EXPECT_REASON=proxy-failed
CHECKS=(
    "r['fault'] == 'proxy' and r['fault_detail'] == 'proxy $FORWARD_PROXY_URL: refuses connections'"
    # A refused connection needs no timeout: well inside the deadline.
    'elapsed < timeout / 2'
    'all(p["outcome"] in ("failure", "skipped") for p in probes)'
    'any(p["error_class"] == "proxy-failed" for p in probes)'
    "all(p['proxy'] == '$FORWARD_PROXY_URL' for p in probes if p['outcome'] != 'skipped')"
)
scenario_test() {
    proxy_default_test "${PROXY_ENV[@]}"
}
