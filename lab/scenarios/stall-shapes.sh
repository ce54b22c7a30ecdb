# shellcheck shell=bash disable=SC2034 # a scenario: lab up runs setup(), lab/test reads the rest
DESCRIPTION="real TCP traffic of five shapes, the gateway then dropping all it would route (one begins 30 s after watch saw an empty table); and a dead peer beside finished keep-alive responses"
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
# Each shape: its flows running, watch --interval 600 --hold 0 started, 7 s in which no record
# may come (two readings 3 s apart show the flows streaming), then the gateway drops what it
# would route: an offline record (trigger stall) done within 20 s, netprobe_stall_suspected_total 1.
# First, watch starts with no TCP connection: 30 s without a record, then two downloads and an
# upload begin, 35 s more without one (the empty table is read every 30 s, then twice 3 s
# apart), then the drop. Then 30 s of a dead peer (a websocket whose peer is dropped) beside
# finished keep-alive responses (STALL_KEEPALIVE_SECONDS, e.g. 300 for five minutes): no
# record, the counter 0.
scenario_test() {
    source "$LAB_DIR/lib/stall.sh"
    local vendor=203.0.113
    stall_watch late
    stall_quiet late 30
    stall_flows 1000000 "D@$vendor.10" "D@$vendor.11" "U@$vendor.12"
    stall_quiet late 35
    stall_drop late

    stall_watch keepalive
    stall_flows 1000000 "W@$vendor.15"
    "$LAB" do block "ip daddr $vendor.15" drop
    stall_flows 1000000 "K@$vendor.13" "K@$vendor.14"
    stall_quiet keepalive "${STALL_KEEPALIVE_SECONDS:-30}"
    [[ $(grep -c . "$DIR/keepalive.jsonl") == 1 && $(stall_counter keepalive) == 0 ]] ||
        echo "keepalive: a dead peer beside finished responses raised $(grep -c . "$DIR/keepalive.jsonl") record(s), counter $(stall_counter keepalive)" >>"$DIR/problems.txt"
    stall_stop keepalive
    echo "keepalive: ${STALL_KEEPALIVE_SECONDS:-30} s, no record, no suspicion" >>"$DIR/detection.txt"

    stall_flows 50000 "D@$vendor.10" "D@$vendor.11" "U@$vendor.12"
    stall_watch slow && stall_quiet slow 7 && stall_drop slow
    stall_flows 1000000 "D@$vendor.10" "D@$vendor.10" "U@$vendor.10"
    stall_watch one-server && stall_quiet one-server 7 && stall_drop one-server
    stall_flows 1000000 "D@$vendor.10" "D@$vendor.11"
    stall_watch downloads && stall_quiet downloads 7 && stall_drop downloads
    stall_flows 1000000 "D@$vendor.10" "D@$vendor.11" "U@$vendor.12"
    stall_flows 1000000 "D@$GW_V4"
    stall_watch beside-lan && stall_quiet beside-lan 7 && stall_drop beside-lan
    stall_result
}
