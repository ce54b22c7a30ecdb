# shellcheck shell=bash disable=SC2034 # a scenario: lab up runs setup(), lab/test reads the rest
DESCRIPTION="an open network whose system bus takes connections and never answers (its dbus-daemon stopped: dbus.socket while the broker starts at boot, or a wedged broker): connecting is given up within a quarter of a second and the link's owners are not asked again that check: check, check --all-paths and wait (as the wait-online unit runs it) are online, as fast as without a bus"
setup() {
    client_ipv4
    dns_vendors
    web_vendors
    lab_bus
    daemon_freeze bus
}
scenario_test() {
    TIMEOUT=8 EXPECT_EXIT=0 EXPECT_VERDICT=online EXPECT_REASON=probes-validated
    CHECKS=(
        'r["portal"] is None and r["dns"]["used"] == "configured"'
        # sd-bus alone waits 90 s for the Hello of a broker that never answers.
        'elapsed < 2'
    )
    np_step check check --json --timeout "$TIMEOUT"
    # Every path's plan asks the owners: one quarter of a second for the check, not one per path.
    np_step all-paths check --json --all-paths --timeout "$TIMEOUT"
    np_step wait wait --json --timeout "$TIMEOUT"
    np_steps_result
}
