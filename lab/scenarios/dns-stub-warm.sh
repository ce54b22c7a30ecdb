# shellcheck shell=bash disable=SC2034 # a scenario: lab up runs setup(), lab/test reads the rest
DESCRIPTION="systemd-resolved's stub (127.0.0.53, edns0 trust-ad, search .) forwarding to the link's resolver (the gateway, DNS= in networkd's and resolved's link state), its cache warm: online, the stub's upstream in dns.upstreams, the link's resolver never asked by netprobe itself"
setup() {
    client_ipv4
    dns_vendors
    web_vendors
    link_dns_announce networkd "$GW_V4"
    stub_resolver "$GW_V4"
}
TIMEOUT=8
EXPECT_EXIT=0
EXPECT_VERDICT=online
EXPECT_REASON=probes-validated
CHECKS=(
    'r["dns"]["configured"] == ["127.0.0.53"] and r["dns"]["local_stub"] is True'
    'r["dns"]["upstreams"] == ["198.51.100.1"] and r["dns"]["upstreams_source"] == "systemd-resolved"'
    'r["dns"]["used"] == "configured" and r["dns"]["link_asked"] is False'
    'all(p["resolver"] in ("configured", None) for p in probes)'
    'elapsed < 2'
)
