# shellcheck shell=bash disable=SC2034 # a scenario: lab up runs setup(), lab/test reads the rest
# Exercises the CLI's proxy handling (--no-proxy).
# shellcheck source=lab/lib/proxy.sh
source "$LAB_DIR/lib/proxy.sh"
DESCRIPTION="the proxy-env network, checked with --no-proxy: the direct path is closed, offline"
setup() {
    client_ipv4
    dns_vendors "$(forward_proxy_host_record)"
    web_vendors
    forward_proxy normal
    direct_web_rejected
}
EXPECT_EXIT=1
EXPECT_VERDICT=offline
EXPECT_REASON=connect-failed
NETPROBE_ARGS=(--no-proxy)
CHECKS=(
    'all(p["proxy"] is None for p in probes)'
    'all(p["outcome"] in ("failure", "skipped") for p in probes)'
    'counters["client_http"] > 0'
)
scenario_test() {
    proxy_default_test "${PROXY_ENV[@]}"
}
