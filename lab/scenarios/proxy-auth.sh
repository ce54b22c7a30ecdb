# shellcheck shell=bash disable=SC2034 # a scenario: lab up runs setup(), lab/test reads the rest
# Exercises the CLI's proxy handling (environment proxy, reason proxy-auth-required).
# shellcheck source=lab/lib/proxy.sh
source "$LAB_DIR/lib/proxy.sh"
DESCRIPTION="the proxy answers 407 (Basic realm=\"lab\") and no credentials are set: offline"
setup() {
    client_ipv4
    dns_vendors "$(forward_proxy_host_record)"
    web_vendors
    forward_proxy auth
    direct_web_rejected
}
EXPECT_EXIT=1
EXPECT_VERDICT=offline
EXPECT_REASON=proxy-auth-required
CHECKS=(
    'r["fault"] == "proxy" and r["fault_detail"].endswith(": asks for credentials")'
    'all(p["outcome"] in ("failure", "skipped") for p in probes)'
    'any(p["error_class"] == "proxy-auth-required" for p in probes)'
    "all(p['proxy'] == '$FORWARD_PROXY_URL' for p in probes if p['outcome'] != 'skipped')"
    'r["portal"] is None'
)
scenario_test() {
    proxy_default_test "${PROXY_ENV[@]}"
}
