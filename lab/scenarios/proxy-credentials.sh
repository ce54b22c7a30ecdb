# shellcheck shell=bash disable=SC2034 # a scenario: lab up runs setup(), lab/test reads the rest
# Exercises the CLI's proxy handling (environment proxy, probe key "proxy").
# shellcheck source=lab/lib/proxy.sh
source "$LAB_DIR/lib/proxy.sh"
DESCRIPTION="the proxy wants credentials, the proxy URL carries them: online, the secret in no output"
setup() {
    client_ipv4
    dns_vendors "$(forward_proxy_host_record)"
    web_vendors
    forward_proxy credentials
    direct_web_rejected
}
EXPECT_EXIT=0
EXPECT_VERDICT=online
EXPECT_REASON=probes-validated
CHECKS=(
    # Shown without the credentials.
    "all(p['proxy'] == '$FORWARD_PROXY_URL' for p in probes if p['outcome'] != 'skipped')"
    'sum(1 for p in probes if p["outcome"] == "success") >= 2'
)
CREDENTIALS_ENV=("http_proxy=$FORWARD_PROXY_CREDENTIALS_URL" "https_proxy=$FORWARD_PROXY_CREDENTIALS_URL")
scenario_test() {
    local out=$DIR/outputs format
    mkdir -p "$out"
    # Every output format, stdout and stderr, and a run whose verdict is not online (--no-proxy
    # would show nothing; a wrong port keeps the credentials in play while failing).
    for format in text prometheus; do
        np_run_env "${CREDENTIALS_ENV[@]}" -- check --format "$format" --timeout "$TIMEOUT"
        cp "$DIR/report.json" "$out/$format.out"
        cp "$DIR/stderr.txt" "$out/$format.err"
    done
    np_run_env "http_proxy=http://$FORWARD_PROXY_USER:$FORWARD_PROXY_SECRET@$FORWARD_PROXY_NAME:1" -- \
        check --json --timeout "$TIMEOUT"
    cp "$DIR/report.json" "$out/failing.json"
    cp "$DIR/stderr.txt" "$out/failing.err"
    proxy_default_test "${CREDENTIALS_ENV[@]}" || return 1
    # The secret, and the user:secret pair in Basic encoding, appear nowhere.
    local basic
    basic=$(printf '%s' "$FORWARD_PROXY_USER:$FORWARD_PROXY_SECRET" | base64)
    if grep -rlF -e "$FORWARD_PROXY_SECRET" -e "$basic" "$out" "$DIR/report.json" "$DIR/stderr.txt" >>"$DIR/check.txt"; then
        echo "the proxy's secret appears in the outputs above" >>"$DIR/check.txt"
        return 1
    fi
}
