# shellcheck shell=bash disable=SC2034 # a scenario: lab up runs setup(), lab/test reads the rest
# shellcheck source=lab/lib/proxy.sh
source "$LAB_DIR/lib/proxy.sh"
DESCRIPTION="proxy variables set, the proxy swallows every SYN, the router answers: fault proxy, named"
setup() {
    client_ipv4
    dns_vendors "$(forward_proxy_host_record)"
    web_vendors
    forward_proxy down
    block "ip daddr $FORWARD_PROXY_V4 tcp dport $FORWARD_PROXY_PORT" drop
    direct_web_rejected
}
TIMEOUT=4
EXPECT_EXIT=1
EXPECT_VERDICT=offline
EXPECT_REASON=proxy-failed
CHECKS=(
    'r["fault"] == "proxy" and r["paths"][0]["fault"] == "proxy"'
    "r['fault_detail'] == 'proxy $FORWARD_PROXY_URL: does not answer'"
    'elapsed <= timeout + 1.0'
    'text_status == 1'
    "text.splitlines()[0] == 'offline: the proxy $FORWARD_PROXY_URL does not answer (proxy-failed)'"
)
scenario_test() {
    np_run_env "${PROXY_ENV[@]}" -- check --timeout "$TIMEOUT"
    mv "$DIR/report.json" "$DIR/text.txt"
    TEXT_RC=$NP_RC
    proxy_default_test "${PROXY_ENV[@]}"
}
