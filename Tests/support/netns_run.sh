#!/bin/sh
# Runs one command inside a private network namespace, so nothing it does can
# reach a real network, with the namespace's network shaped as asked and,
# optionally, probe_server.py instances listening on 127.0.0.1 inside it. The
# namespace (and everything in it) vanishes when the last process in it exits.
# Test fixture for the NetprobeCLITests (it must run as root).
#
# usage: netns_run.sh --dir DIR [--net MODE] [--server 'ARGS']... [--tty]
#                     [--limit SECONDS] [--hosts FILE] -- COMMAND [ARG...]
#
#   --dir DIR      an existing directory for server port files, logs and stats
#   --net MODE     lo         only loopback, up (the default)
#                  online     + veth d0 198.51.100.2/24 with carrier and a default
#                               route via 198.51.100.1 (the path gate passes)
#                  noroute    + the veth with its address, but no default route
#                  nocarrier  + the veth and the default route, but its peer is
#                               down, so d0 has no carrier
#                  noaddress  + the veth with carrier and a default route out of
#                               it (no gateway), but no address on it
#   --server ARGS  start `probe_server.py --bind 127.0.0.1 ARGS` (word-split; give
#                  fixed ports: the namespace is private, so they cannot clash);
#                  repeatable. The command starts once every server listens.
#   --tty          run COMMAND on a pseudo-terminal (its stdout is a TTY)
#   --limit S      kill COMMAND after S seconds (default 60): a hang cannot block
#   --hosts FILE   FILE is /etc/hosts inside (bind-mounted in the private mount
#                  namespace): names a test gives loopback addresses, such as the
#                  famous check hosts portals let through
#
# Exit status: COMMAND's; 124 when it outlived --limit; 125 when the namespace
# or a server could not be set up (the reason is on stderr).
# DIR/stats gets lo_tx_before, lo_tx_after (packets sent on lo, read from this
# namespace's /sys/class/net) and elapsed_ms (COMMAND alone, not the setup).

fail() {
    echo "netns_run: $*" >&2
    exit 125
}

if [ "${NETNS_RUN_INSIDE:-}" != 1 ]; then
    # A mount namespace too, so a fresh sysfs shows this network namespace's links.
    NETNS_RUN_INSIDE=1 exec unshare --net --mount --propagation private sh "$0" "$@"
fi
unset NETNS_RUN_INSIDE

dir='' net=lo servers='' tty=0 limit=60 hosts=''
while [ $# -gt 0 ]; do
    case $1 in
        --dir) dir=$2; shift 2 ;;
        --net) net=$2; shift 2 ;;
        --server) servers="$servers$2
"; shift 2 ;;
        --tty) tty=1; shift ;;
        --limit) limit=$2; shift 2 ;;
        --hosts) hosts=$2; shift 2 ;;
        --) shift; break ;;
        *) fail "unknown option: $1" ;;
    esac
done
if [ -z "$dir" ] || [ ! -d "$dir" ]; then fail "--dir must name an existing directory"; fi
[ $# -gt 0 ] || fail "no command given after --"
here=$(cd "$(dirname "$0")" && pwd)

mount -t sysfs sysfs /sys || fail "cannot mount sysfs in the private mount namespace"
if [ -n "$hosts" ]; then mount --bind "$hosts" /etc/hosts || fail "cannot bind $hosts over /etc/hosts"; fi
ip link set lo up || fail "cannot bring lo up"
case $net in
    lo) ;;
    online | noroute | nocarrier | noaddress)
        ip link add d0 type veth peer name d1 || fail "cannot create the veth pair"
        # No IPv6 on the veth: no autoconfiguration chatter, no stray addresses.
        for link in d0 d1; do echo 1 >"/proc/sys/net/ipv6/conf/$link/disable_ipv6"; done
        if [ "$net" != nocarrier ]; then ip link set d1 up || fail "cannot bring d1 up"; fi
        if [ "$net" != noaddress ]; then ip addr add 198.51.100.2/24 dev d0 || fail "cannot address d0"; fi
        ip link set d0 up || fail "cannot bring d0 up"
        case $net in
            noroute) ;;
            noaddress) ip route add default dev d0 || fail "cannot add the default route" ;;
            *) ip route add default via 198.51.100.1 dev d0 || fail "cannot add the default route" ;;
        esac
        ;;
    *) fail "unknown --net mode: $net" ;;
esac

pids=''
# shellcheck disable=SC2317 # called by the EXIT trap
cleanup() {
    for pid in $pids; do kill "$pid" 2>/dev/null; done
    for pid in $pids; do wait "$pid" 2>/dev/null; done
}
trap cleanup EXIT
trap 'exit 143' TERM INT HUP

count=0
saved_ifs=$IFS
IFS='
'
for spec in $servers; do
    IFS=$saved_ifs
    count=$((count + 1))
    rm -f "$dir/server$count.port" # a port file from an earlier run in DIR must not count
    # shellcheck disable=SC2086 # ARGS is word-split on purpose
    python3 "$here/probe_server.py" --bind 127.0.0.1 --portfile "$dir/server$count.port" \
        --lifetime "$((limit + 30))" $spec >"$dir/server$count.log" 2>&1 &
    pids="$pids $!"
done
IFS=$saved_ifs

# The port file is written once every socket of that server listens.
index=1
while [ "$index" -le "$count" ]; do
    tries=0
    until [ -s "$dir/server$index.port" ]; do
        tries=$((tries + 1))
        [ "$tries" -le 300 ] || fail "probe_server $index did not start: $(cat "$dir/server$index.log")"
        sleep 0.05
    done
    index=$((index + 1))
done

lo_tx() { cat /sys/class/net/lo/statistics/tx_packets; }
lo_before=$(lo_tx)
start=$(date +%s%N)
if [ "$tty" = 1 ]; then
    timeout -k 5 "$limit" python3 -c '
import os, pty, sys
sys.exit(os.waitstatus_to_exitcode(pty.spawn(sys.argv[1:])))
' "$@"
else
    timeout -k 5 "$limit" "$@"
fi
status=$?
end=$(date +%s%N)
lo_after=$(lo_tx)
printf 'lo_tx_before=%s\nlo_tx_after=%s\nelapsed_ms=%s\n' \
    "$lo_before" "$lo_after" "$(((end - start) / 1000000))" >"$dir/stats"
exit "$status"
