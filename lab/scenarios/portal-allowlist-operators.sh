# shellcheck shell=bash disable=SC2034 # a scenario: lab up runs setup(), lab/test reads the rest
DESCRIPTION="portals letting two operators' check hosts through on :80 and :443 and intercepting every other host, several pairs (two drawn by the lab), several checks each: portal every time"
setup() {
    client_ipv4
    dns_vendors
    web_vendors
    portal redirect
}
EXPECT_EXIT=2
EXPECT_VERDICT=portal
EXPECT_REASON=http-redirect
CHECKS=()
# Every first wave netprobe can draw asks a third operator, whose probe the portal intercepts
# (plain HTTP) or drops or refuses (HTTPS); that sends the rest, and they show the portal.
scenario_test() {
    # shellcheck source=lab/lib/allowlist.sh
    source "$LAB_DIR/lib/allowlist.sh"
    local pair ops
    # Firefox's and GNOME's hosts, HTTPS to the rest refused: the network that was online 10 of 10.
    allowlist_runs firefox-gnome 6 6 redirect reset detectportal.firefox.com nmcheck.gnome.org
    allowlist_runs microsoft-cloudflare 4 4 511 drop www.msftconnecttest.com cp.cloudflare.com
    allowlist_runs google-gnome 4 4 login-page reset connectivitycheck.gstatic.com www.google.com nmcheck.gnome.org
    for pair in 1 2; do
        read -r -a ops <<<"$(allowlist_random_operators)"
        # shellcheck disable=SC2086 # each operator's hosts, one word each
        allowlist_runs "drawn$pair-${ops[0]}-${ops[1]}" 4 4 redirect drop \
            ${ALLOWLIST_OPERATOR_HOSTS[${ops[0]}]} ${ALLOWLIST_OPERATOR_HOSTS[${ops[1]}]}
    done
    np_steps_result
}
