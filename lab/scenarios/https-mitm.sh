# shellcheck shell=bash disable=SC2034 # a scenario: lab up runs setup(), lab/test reads the rest
DESCRIPTION="HTTPS intercepted with an untrusted certificate on two dual-stack uplinks: HTTPS fails verification on every path (the paths' handshakes share one certificate store)"
setup() {
    client_ipv4 --metric 100
    client_ipv6 --metric 100
    client_uplink2 46 --metric 200
    dns_vendors
    web_vendors
    tls_mitm
}
scenario_test() {
    TIMEOUT=10 EXPECT_EXIT=0 EXPECT_VERDICT=online EXPECT_REASON=probes-validated
    CHECKS=(
        'r["partial"] is True'
        'probe("www.google.com")["outcome"] == "failure"'
        'probe("www.google.com")["error_class"] == "tls"'
        'sum(n + ": tls: " in r["partial_error"] for n in ("apple-https", "cloudflare-https", "google-https")) >= 2'
        'counters["client_https"] > 0'
    )
    np_step plain check --json --timeout "$TIMEOUT"

    TIMEOUT=10 EXPECT_EXIT=0 EXPECT_VERDICT=online EXPECT_REASON=probes-validated
    CHECKS=(
        'len(r["paths"]) == 4'
        'all(p["verdict"] == "online" and p["partial"] is True for p in r["paths"])'
        'all(q["outcome"] == "skipped" or (q["outcome"] == "failure" and q["error_class"] == "tls") for p in r["paths"] for q in p["probes"] if q["url"].startswith("https://"))'
        'all(sum(q["outcome"] == "failure" for q in p["probes"] if q["url"].startswith("https://")) >= 2 for p in r["paths"])'
        'counters["uplink2_syns"] > 0'
    )
    lab_do counters_reset
    np_step all-paths check --json --all-paths --timeout "$TIMEOUT"
    np_steps_result
}
