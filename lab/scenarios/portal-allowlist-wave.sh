# shellcheck shell=bash disable=SC2034 # a scenario: lab up runs setup(), lab/test reads the rest
DESCRIPTION="portals letting exactly the hosts of one first wave through (the old fixed one, another, one the lab draws), 20 checks each: netprobe draws its own and is caught in nearly all"
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
# netprobe draws each check's first wave among 22, uniformly: a portal that lets one wave's
# hosts through is fooled by that draw alone, one check in 22 on average (FirstWavesTests
# proves the one in 22 exactly). Twenty checks must find it a portal in at least 16: a draw
# that stayed put (as the fixed first wave did) fails with 0 of 20, while a fair one fails this
# bound in about one run in 700. The counts are in steps.txt.
scenario_test() {
    # shellcheck source=lab/lib/allowlist.sh
    source "$LAB_DIR/lib/allowlist.sh"
    local -a drawn
    allowlist_runs firefox-gnome-cloudflare 20 16 redirect drop detectportal.firefox.com nmcheck.gnome.org cp.cloudflare.com
    allowlist_runs apple-microsoft-google 20 16 redirect reset captive.apple.com www.msftconnecttest.com www.google.com
    read -r -a drawn <<<"$(allowlist_random_wave)"
    allowlist_runs drawn-wave 20 16 redirect drop "${drawn[@]}"
    np_steps_result
}
