# shellcheck shell=bash disable=SC2034 # a scenario: lab up runs setup(), lab/test reads the rest
# shellcheck source=lab/lib/proxy.sh
source "$LAB_DIR/lib/proxy.sh"
DESCRIPTION="proxy variables set, but NO_PROXY lists the probe hosts: direct, so offline"
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
# Every form curl accepts: exact host, domain suffix with and without a leading dot.
NO_PROXY_HOSTS="captive.apple.com,.gstatic.com,firefox.com,www.msftconnecttest.com,gnome.org,.google.com,cloudflare.com"
CHECKS=(
    'all(p.get("proxy") is None for p in probes)'
    'all(p["outcome"] in ("failure", "skipped") for p in probes)'
    'counters["client_http"] > 0'
)
scenario_test() {
    proxy_default_test "${PROXY_ENV[@]}" "NO_PROXY=$NO_PROXY_HOSTS"
}
