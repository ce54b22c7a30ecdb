# shellcheck shell=bash disable=SC2034 # constants used by blocks.sh and the proxy scenarios
# The lab's explicit (forward) proxy, as CI runners and corporate hosts have one.
# Sourced by the proxy-* scenarios (for lab/test, which does not source
# blocks.sh) and by blocks.sh's forward_proxy* blocks.
#
# The proxy lives on the gateway at a documentation address of its own, not in
# conf/hosts (nginx does not serve it): dns_vendors "$(forward_proxy_host_record)"
# publishes its name. Only an A record: the proxy listens on IPv4.

FORWARD_PROXY_NAME=webproxy.lab.test
FORWARD_PROXY_V4=203.0.113.130
FORWARD_PROXY_PORT=3128
FORWARD_PROXY_URL=http://$FORWARD_PROXY_NAME:$FORWARD_PROXY_PORT
# What the proxy's portal mode redirects every GET to (the lab's portal login host).
FORWARD_PROXY_LOGIN_URL="http://login.portal.test/login?venue=lab"
# The account of --mode credentials, and the secret no output may ever show.
FORWARD_PROXY_SECRET=lab-s3cret-pw
FORWARD_PROXY_USER=ci
FORWARD_PROXY_CREDENTIALS_URL=http://$FORWARD_PROXY_USER:$FORWARD_PROXY_SECRET@$FORWARD_PROXY_NAME:$FORWARD_PROXY_PORT

forward_proxy_host_record() { echo "--host-record=$FORWARD_PROXY_NAME,$FORWARD_PROXY_V4"; }

# np_run_env VAR=VALUE... -- ARGS...: np_run (lab/test) with these environment
# variables set for netprobe. `lab exec` removes proxy variables from the
# caller's environment (so the host's never leak in); `env` sets the
# scenario's own after that, inside the client namespace.
np_run_env() {
    local vars=() t0 t1
    while (($#)) && [[ $1 != -- ]]; do vars+=("$1"); shift; done
    shift
    t0=$(date +%s%N)
    set +e
    timeout --foreground --kill-after=5 "$((${TIMEOUT%.*} + 30))" "$LAB" exec env "${vars[@]}" "$NETPROBE_BIN" "$@" \
        >"$DIR/report.json" 2>"$DIR/stderr.txt"
    NP_RC=$?
    set -e
    t1=$(date +%s%N)
    NP_ELAPSED=$(awk -v ns=$((t1 - t0)) 'BEGIN { printf "%.3f", ns / 1e9 }')
}

# The proxy variables a CI runner sets: every probe through FORWARD_PROXY_URL.
PROXY_ENV=("http_proxy=$FORWARD_PROXY_URL" "https_proxy=$FORWARD_PROXY_URL")

# proxy_default_test [VAR=VALUE...]: the default test (check --json), with these variables.
proxy_default_test() {
    np_run_env "$@" -- check --json --timeout "$TIMEOUT" "${NETPROBE_ARGS[@]}"
    np_check
}
