# shellcheck shell=bash disable=SC2034 # a scenario: lab up runs setup(), lab/test reads the rest
DESCRIPTION="HTTPS blocked (TCP reset), HTTP fine: online, partial"
setup() {
    client_ipv4
    dns_vendors
    web_vendors
    block "tcp dport 443" reset
}
EXPECT_EXIT=0
EXPECT_VERDICT=online
EXPECT_REASON=probes-validated
CHECKS=(
    'r["partial"] is True'
    'probe("www.google.com")["outcome"] == "failure"'
    'probe("www.google.com")["error_class"] in ("refused", "reset")'
    'counters["client_https"] > 0'
    # A plain network: no Captive Portal API announced, no proxy, no lying resolver.
    'r["capport"] is None and r["proxy"] is False and r["dns_hijack"] is False'
    'all(p["dns_hijack"] in (False, None) for p in probes)'
    # Waves: the first wave's HTTPS probe refused sends every other probe: every HTTPS operator is named.
    'sum(any(f"{n}: {c}: " in r["partial_error"] for c in ("refused", "reset")) for n in ("apple-https", "cloudflare-https", "google-https")) >= 2'
)
