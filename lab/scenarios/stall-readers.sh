# shellcheck shell=bash disable=SC2034 # a scenario: lab up runs setup(), lab/test reads the rest
DESCRIPTION="downloads read slower than the link (curl --limit-rate), from two servers and from one, the gateway then dropping all it would route; a reader paused a minute (SIGSTOP) on a healthy network, resumed, then the drop"
setup() {
    client_ipv4
    dns_vendors
    web_vendors
    bulk_server
}
EXPECT_EXIT=0
EXPECT_VERDICT=online
EXPECT_REASON=probes-validated
CHECKS=()
# Each download is an endless HTTP body read by `curl --limit-rate 1M`: the link is faster, so
# the receive queue holds megabytes and the window opens and shuts, data arriving in bursts.
# Nothing else is on the link. Per shape: watch --interval 600 --hold 0 started beside them,
# 10 s without a record, then the gateway drops everything but its own address: an offline
# record (trigger stall) done within 20 s of the drop, netprobe_stall_suspected_total 1.
# Then the paused reader: two rate-limited downloads, one of them stopped (SIGSTOP, by PID)
# for 60 s on a healthy network: no record and at most one stall check; resumed (SIGCONT) for
# 20 s: still no record and no further check; then the drop: an offline record within 20 s.
scenario_test() {
    source "$LAB_DIR/lib/stall.sh"
    local vendor=203.0.113 pid
    stall_curl 1M "$vendor.10" "$vendor.11"
    stall_watch two-servers && stall_quiet two-servers 10 && stall_drop two-servers
    stall_curl 1M "$vendor.10" "$vendor.10"
    stall_watch one-server && stall_quiet one-server 10 && stall_drop one-server

    stall_curl 1M "$vendor.10" "$vendor.11"
    stall_watch paused
    stall_quiet paused 7
    pid=${STALL_READER_PIDS[0]}
    kill -STOP "$pid"
    stall_quiet_checks paused 60 1
    kill -CONT "$pid"
    local before
    before=$(stall_counter paused)
    stall_quiet_checks paused 20 "${before:-0}"
    stall_drop paused $((${before:-0} + 1))
    stall_result
}
