# shellcheck shell=bash disable=SC2034 # a scenario: lab up runs setup(), lab/test reads the rest
DESCRIPTION="--ca-bundle replaces the system's CAs: the lab's own CA as the bundle validates HTTPS, another CA fails it although the system store trusts the lab"
setup() {
    client_ipv4
    dns_vendors
    web_vendors
}
scenario_test() {
    TIMEOUT=10 EXPECT_EXIT=0 EXPECT_VERDICT=online EXPECT_REASON=probes-validated
    CHECKS=(
        'r["partial"] is False'
        # Waves: HTTPS is asked of one operator while it validates; every one asked did.
        'all(p["outcome"] in ("success", "skipped") for p in probes if p["url"].startswith("https://"))'
        'any(p["outcome"] == "success" for p in probes if p["url"].startswith("https://"))'
    )
    np_step lab-ca check --json --timeout "$TIMEOUT" --ca-bundle "$LAB_RUNS/$LAB_RUN/tls/ca.crt"

    # A CA that signed nothing here. libcurl's own default CA path (/etc/ssl/certs, which in
    # the lab trusts the lab's CA) must not be consulted beside the bundle.
    openssl req -x509 -new -nodes -newkey ec -pkeyopt ec_paramgen_curve:P-256 -days 2 \
        -subj "/CN=netprobe lab unrelated CA" -keyout "$DIR/other-ca.key" -out "$DIR/other-ca.pem" 2>/dev/null
    TIMEOUT=10 EXPECT_EXIT=0 EXPECT_VERDICT=online EXPECT_REASON=probes-validated
    CHECKS=(
        'r["partial"] is True'
        'probe("www.google.com")["outcome"] == "failure"'
        'probe("www.google.com")["error_class"] == "tls"'
    )
    np_step other-ca check --json --timeout "$TIMEOUT" --ca-bundle "$DIR/other-ca.pem"
    np_steps_result
}
